import { z } from 'zod';
import { categorySchema, urgencySchema } from '../workflow/classification.js';

const revision = z.number().int().min(0).describe('The thread’s revision after this event.');

/** What every event carries: when, and who caused it (`model` and `system` for the service's own steps). */
const event = <T extends string, S extends z.ZodRawShape>(
  type: T,
  fields: S,
  description: string,
) =>
  z
    .object({
      type: z.literal(type),
      at: z.iso.datetime(),
      actor: z
        .string()
        .describe(
          'The reviewer (API token name, JWT email or sub, `reviewer`, `anonymous`), `model` or `system`.',
        ),
      ...fields,
    })
    .describe(description);

const deliveryFields = {
  attempts: z.number().int().min(0).describe('SMTP attempts since the message was last queued.'),
  last_error: z.string().nullable(),
};

/** One entry of a thread's history. Append-only: written with the change it records, never changed. */
export const historyEventSchema = z.discriminatedUnion('type', [
  event('created', { source: z.enum(['json', 'mime']) }, 'The email was received.'),
  event(
    'classified',
    { category: categorySchema, urgency: urgencySchema },
    'The model classified the email.',
  ),
  event('drafted', { revision }, 'The model wrote a draft.'),
  event('edited', { revision, text: z.string() }, 'A reviewer replaced the draft with this text.'),
  event(
    'redrafted',
    { revision, instructions: z.string() },
    'The model rewrote the draft following a reviewer’s instructions.',
  ),
  event(
    'approved',
    {
      revision,
      text_sha256: z.string().describe('SHA-256 (hex) of the approved text, exactly as sent.'),
    },
    'A reviewer approved this revision; its reply was queued.',
  ),
  event('rejected', { reason: z.string().nullable() }, 'A reviewer rejected the draft.'),
  event('failed', { code: z.string() }, 'A workflow step failed (see the thread’s `error`).'),
  event(
    'retried',
    {},
    'The workflow was resumed: by a reviewer, or by the service (`system`) for a thread a crash left drafting.',
  ),
  event(
    'recovered',
    { revision },
    'The thread’s view was re-derived from the workflow’s checkpoint (by retry) after a run was cut short.',
  ),
  event('queued', deliveryFields, 'The reply was queued for delivery (again after a deferral).'),
  event('delivered', deliveryFields, 'The mail server accepted the reply.'),
  event(
    'logged',
    deliveryFields,
    'The reply was written to the service’s log (no SMTP server configured).',
  ),
  event(
    'no_recipient',
    deliveryFields,
    'Nothing was sent: the thread has no address to reply to (redeliver with `to` sends it).',
  ),
  event('delivery_failed', deliveryFields, 'The mail server refused the reply for good.'),
  event(
    'redelivered',
    deliveryFields,
    'A reviewer queued a failed or recipient-less delivery again (to a new address, if given).',
  ),
]);
export type HistoryEvent = z.infer<typeof historyEventSchema>;

export const threadHistorySchema = z.object({
  thread_id: z.string(),
  events: z.array(historyEventSchema).describe('Oldest first.'),
});
export type ThreadHistoryView = z.infer<typeof threadHistorySchema>;

/** Reads a thread's history; events are appended by the thread index's and deliveries' writes. */
export interface ThreadHistory {
  /** Oldest first; empty for an unknown thread. */
  list(threadId: string): Promise<HistoryEvent[]>;
}
