import { randomInt } from 'node:crypto';
import type { ToolOptions } from '@google/adk';
import { z } from 'zod';

const createTicketParameters = z.object({
  summary: z.string().min(1).max(2000).describe('What the customer needs a human for.'),
  priority: z
    .enum(['low', 'normal', 'high', 'urgent'])
    .optional()
    .describe('How urgent the request is; normal when unsure.'),
});

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** `TCK-` and 8 random characters (no look-alikes such as 0/O, 1/I). */
export function randomTicketId(): string {
  let suffix = '';
  for (let i = 0; i < 8; i += 1) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return `TCK-${suffix}`;
}

export function createTicket(
  { summary, priority = 'normal' }: z.infer<typeof createTicketParameters>,
  newTicketId: () => string = randomTicketId,
) {
  const ticket_id = newTicketId();
  return {
    ticket_id,
    status: 'open' as const,
    priority,
    summary,
    message: `Ticket ${ticket_id} was created; a human agent will contact the customer.`,
  };
}

/** Built into a FunctionTool by the agent tree (agents/specialists.ts). */
export const createTicketTool: ToolOptions<typeof createTicketParameters> = {
  name: 'create_ticket',
  description: 'Opens a support ticket so that a human agent takes over; returns the ticket id.',
  parameters: createTicketParameters,
  execute: (args) => createTicket(args),
};
