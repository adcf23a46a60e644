import { getFunctionCalls, getFunctionResponses, stringifyContent, type Event } from '@google/adk';

export interface HistoryLimits {
  /** Finished turns kept at most. */
  turns: number;
  /** Characters of text (messages and replies) kept at most, whatever the number of turns. */
  chars: number;
}

function replyText(event: Event): string {
  if (
    event.partial ||
    event.errorCode ||
    getFunctionCalls(event).length > 0 ||
    getFunctionResponses(event).length > 0
  ) {
    return '';
  }
  return stringifyContent(event).trim();
}

/**
 * What the model sees of finished turns: the latest within both limits, each the user's message and
 * its reply only (which says what the tools found). A turn without a reply (it failed) goes whole,
 * so a message sent again is not doubled.
 */
export function condenseHistory(events: readonly Event[], limits: HistoryLimits): Event[] {
  const finished: Array<{ user: Event; reply: Event; chars: number }> = [];
  let user: Event | undefined;
  let reply: { event: Event; chars: number } | undefined;
  const closeTurn = () => {
    if (user && reply) {
      finished.push({
        user,
        reply: reply.event,
        chars: stringifyContent(user).length + reply.chars,
      });
    }
  };
  for (const event of events) {
    if (event.author === 'user') {
      closeTurn();
      user = event;
      reply = undefined;
      continue;
    }
    const text = user ? replyText(event) : '';
    if (text) reply = { event, chars: text.length };
  }
  closeTurn();

  const kept: Event[] = [];
  let chars = 0;
  for (let i = finished.length - 1; i >= 0 && finished.length - i <= limits.turns; i -= 1) {
    const turn = finished[i]!;
    chars += turn.chars;
    if (chars > limits.chars) break;
    kept.unshift(turn.user, turn.reply);
  }
  return kept;
}
