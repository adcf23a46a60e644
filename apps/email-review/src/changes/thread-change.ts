import { z } from 'zod';

/** One change of a thread as GET /events tells it: enough to know what to reload, no email text. */
export const threadChangeSchema = z.object({
  id: z.string().describe('The event id (also its SSE `id:` line), for `Last-Event-ID`.'),
  type: z.enum(['thread.created', 'thread.updated']),
  thread_id: z.string(),
  status: z.string(),
  revision: z.number().int(),
  delivery: z.string().nullable().describe('The delivery status, once approved.'),
});

export type ThreadChange = z.infer<typeof threadChangeSchema>;
