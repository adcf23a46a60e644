import {
  getFunctionResponses,
  isFinalResponse,
  stringifyContent,
  type Event,
  type Runner,
} from '@google/adk';
import { TurnFailedError, turnFailureFromModelError } from './turn-errors.js';

export interface TurnOutcome {
  /** The agent whose text ended the turn. */
  agent: string;
  reply: string;
  /** The id `create_ticket` returned in this turn, if it ran. */
  ticketId?: string;
}

export interface TurnInput {
  userId: string;
  sessionId: string;
  message: string;
}

function ticketIdIn(event: Event): string | undefined {
  for (const response of getFunctionResponses(event)) {
    const ticketId = (response.response as { ticket_id?: unknown } | undefined)?.ticket_id;
    if (response.name === 'create_ticket' && typeof ticketId === 'string') return ticketId;
  }
  return undefined;
}

/**
 * Runs one message through the agent tree and reads the outcome from ADK's events: the last
 * final text is the reply and its author the agent; a `create_ticket` result gives the ticket id.
 * ADK reports model failures as events carrying `errorCode`, not as exceptions; those, an
 * exception, or a turn that ends without text all fail the turn.
 */
export async function runTurn(runner: Runner, input: TurnInput): Promise<TurnOutcome> {
  let outcome: TurnOutcome | undefined;
  let ticketId: string | undefined;
  let failure: TurnFailedError | undefined;
  try {
    const events = runner.runAsync({
      userId: input.userId,
      sessionId: input.sessionId,
      newMessage: { role: 'user', parts: [{ text: input.message }] },
    });
    for await (const event of events) {
      if (event.errorCode) {
        failure = turnFailureFromModelError(event.errorCode, event.errorMessage, input.sessionId);
        continue;
      }
      ticketId = ticketIdIn(event) ?? ticketId;
      if (event.author === 'user' || !isFinalResponse(event)) continue;
      const text = stringifyContent(event).trim();
      if (text && event.author) outcome = { agent: event.author, reply: text };
    }
  } catch (error) {
    // e.g. the model transferred to an agent that does not exist, or called an unknown tool.
    throw new TurnFailedError(
      502,
      'agent_error',
      `The agents failed on this message: ${error instanceof Error ? error.message : String(error)}`,
      input.sessionId,
    );
  }
  if (failure) throw failure;
  if (!outcome) {
    throw new TurnFailedError(
      502,
      'empty_reply',
      'The agents ended the turn without a reply.',
      input.sessionId,
    );
  }
  return ticketId ? { ...outcome, ticketId } : outcome;
}
