import { z } from 'zod';
import { chatReplySchema } from '../chat/chat-service.js';
import { turnEventSchemas } from '../chat/turn-events.js';
import { turnProblemSchema } from './schemas.js';

const eventOf = <N extends string>(event: N, data: z.ZodType) =>
  z.object({ event: z.literal(event), id: z.string(), data });

/** POST /chat's `text/event-stream` answer, one item per event, for the OpenAPI document. */
export const chatEventStreamSchema = z
  .discriminatedUnion('event', [
    eventOf('agent', turnEventSchemas.agent),
    eventOf('tool_call', turnEventSchemas.tool_call),
    eventOf('tool_result', turnEventSchemas.tool_result),
    eventOf('delta', turnEventSchemas.delta),
    eventOf('done', chatReplySchema.describe('The last event: the body JSON mode answers.')),
    eventOf(
      'error',
      turnProblemSchema.describe('The last event when the turn failed: problem details.'),
    ),
  ])
  .describe(
    'Server-Sent Events: each with `event:` (its name), `id:` (1, 2, …) and one line of JSON `data:`; ' +
      'agent → tool_call → tool_result → delta… then exactly one done or error. ' +
      'A comment line (`: keep-alive`) every 15 s.',
  );

export const CHAT_EVENT_STREAM_EXAMPLE = [
  'event: agent\nid: 1\ndata: {"agent":"billing"}\n',
  'event: tool_call\nid: 2\ndata: {"name":"lookup_invoice","args":{"invoice_id":"INV-1001"}}\n',
  'event: tool_result\nid: 3\ndata: {"name":"lookup_invoice","result":{"found":true,"invoice_id":"INV-1001","amount":1250,"currency":"EUR","status":"open"}}\n',
  'event: delta\nid: 4\ndata: {"text":"Invoice INV-1001 is open: "}\n',
  'event: delta\nid: 5\ndata: {"text":"1250 EUR, due on 2025-02-15."}\n',
  'event: done\nid: 6\ndata: {"session_id":"demo-1","agent":"billing","reply":"Invoice INV-1001 is open: 1250 EUR, due on 2025-02-15."}\n',
].join('\n');
