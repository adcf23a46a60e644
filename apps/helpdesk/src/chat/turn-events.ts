import {
  getFunctionCalls,
  getFunctionResponses,
  isFinalResponse,
  stringifyContent,
  type Event,
} from '@google/adk';
import { z } from 'zod';
import { agentNameSchema, isAgentName, TRANSFER_TOOL } from '../agents/agent-names.js';

/** The events of a streamed turn, one zod schema each: they type the stream and document it. */
export const turnEventSchemas = {
  agent: z
    .object({ agent: agentNameSchema })
    .describe('The coordinator handed the message to this specialist.'),
  tool_call: z
    .object({ name: z.string(), args: z.record(z.string(), z.unknown()) })
    .describe('The answering agent called one of its tools.'),
  tool_result: z
    .object({
      name: z.string(),
      result: z.unknown(),
      ticket_id: z.string().optional().describe('On create_ticket’s result: the ticket opened.'),
    })
    .describe('What the tool returned.'),
  delta: z
    .object({ text: z.string() })
    .describe('The next piece of the answering agent’s text, as the model writes it.'),
} as const;

type Schemas = typeof turnEventSchemas;
export type TurnEvent = {
  [K in keyof Schemas]: { event: K; data: z.infer<Schemas[K]> };
}[keyof Schemas];

/** The ticket a tool result carries: create_ticket's `ticket_id`. */
export function ticketIdOf(name: string | undefined, result: unknown): string | undefined {
  const ticketId = (result as { ticket_id?: unknown } | undefined)?.ticket_id;
  return name === 'create_ticket' && typeof ticketId === 'string' ? ticketId : undefined;
}

function toolEventsOf(event: Event): TurnEvent[] {
  const events: TurnEvent[] = [];
  for (const call of getFunctionCalls(event)) {
    // A transfer is shown as an `agent` event instead.
    if (call.name === TRANSFER_TOOL) continue;
    events.push({ event: 'tool_call', data: { name: call.name ?? '', args: call.args ?? {} } });
  }
  for (const response of getFunctionResponses(event)) {
    if (response.name === TRANSFER_TOOL) continue;
    const { name, response: result } = response;
    const data = { name: name ?? '', result, ticket_id: ticketIdOf(name, result) };
    events.push({ event: 'tool_result', data });
  }
  return events;
}

/**
 * Reads a turn's ADK events as the client's: a transfer as `agent`, tool calls and results, text as
 * `delta`s from the partial events, or as one delta when a final text came without any.
 */
export function turnEventReader(): (event: Event) => TurnEvent[] {
  let streamed = false;
  return (event) => {
    if (event.errorCode || event.author === 'user') return [];
    if (event.partial) {
      const text = stringifyContent(event);
      streamed ||= text !== '';
      return text ? [{ event: 'delta', data: { text } }] : [];
    }
    const events = toolEventsOf(event);
    const target = event.actions?.transferToAgent;
    if (isAgentName(target)) events.push({ event: 'agent', data: { agent: target } });
    if (isFinalResponse(event) && !streamed) {
      const text = stringifyContent(event);
      if (text.trim()) events.push({ event: 'delta', data: { text } });
    }
    streamed = false;
    return events;
  };
}
