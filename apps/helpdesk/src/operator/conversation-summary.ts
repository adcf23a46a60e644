import type { Turn } from '../sessions/transcript.js';

const MAX_QUOTED = 3;
const MAX_CHARS = 280;

const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;

/**
 * What an operator reads first, without a model call: the ticket, then the customer's latest
 * messages as they wrote them (the newest last), within 280 characters.
 */
export function conversationSummary(turns: readonly Turn[], ticketId: string | null): string {
  const asked = turns
    .filter((turn) => turn.role === 'user')
    .slice(-MAX_QUOTED)
    .map((turn) => `“${clip(turn.text.replace(/\s+/g, ' ').trim(), 120)}”`);
  const opening = ticketId ? `Ticket ${ticketId}. ` : '';
  return clip(`${opening}Customer: ${asked.join(' · ') || '(no message)'}`, MAX_CHARS);
}
