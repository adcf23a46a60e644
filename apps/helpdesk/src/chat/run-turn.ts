import {
  getFunctionResponses,
  isFinalResponse,
  StreamingMode,
  stringifyContent,
  type Event,
  type Runner,
} from '@google/adk';
import { isAgentName, type AgentName } from '../agents/agent-names.js';
import { CALLER_STATE_KEY, type Caller } from '../tools/caller.js';
import { toModelErrorCode, type ModelErrorCode } from '../llm/model-errors.js';
import { checkReplyCitations, RetrievedArticles, type Source } from '../help-center/citations.js';
import { TurnFailedError } from './turn-errors.js';
import { ticketIdOf } from './turn-events.js';

export interface TurnOutcome {
  /** The agent whose text ended the turn. */
  agent: AgentName;
  reply: string;
  /** The id `create_ticket` returned in this turn, if it ran. */
  ticketId?: string;
  /** The articles the reply cites (`[kb:slug]`) that search_help_center returned in this turn. */
  sources: Source[];
  /** Citations of articles the turn did not retrieve, removed from the reply. */
  removedCitations: string[];
}

export interface TurnInput {
  userId: string;
  sessionId: string;
  message: string;
  /** Who the turn runs for: put in session state with the message, for the tools. */
  caller: Caller;
}

/** Who watches a turn as it runs (POST /chat's event stream). */
export interface TurnObserver {
  /** Called when the turn starts, once the session's earlier turns are done. */
  onStart?: () => void;
  /** Every ADK event of the turn as it happens; the model streams (SSE), text comes in partials. */
  onEvent?: (event: Event) => void;
}

const ticketIdIn = (event: Event) =>
  getFunctionResponses(event)
    .map((response) => ticketIdOf(response.name, response.response))
    .find((ticketId) => ticketId !== undefined);

/**
 * Runs one message through the agent tree: the last final text is the reply, its author the agent.
 * A model error event, an exception or no text fails the turn, naming a ticket it opened (so that
 * a client sending the message again knows it has one).
 */
export async function runTurn(
  runner: Runner,
  input: TurnInput,
  observer?: TurnObserver,
): Promise<TurnOutcome> {
  observer?.onStart?.();
  let outcome: Pick<TurnOutcome, 'agent' | 'reply'> | undefined;
  let ticketId: string | undefined;
  const retrieved = new RetrievedArticles();
  let modelError: { code: ModelErrorCode; reason: string } | undefined;
  const failure = (reason?: string) => ({ sessionId: input.sessionId, ticketId, reason });
  try {
    const events = runner.runAsync({
      userId: input.userId,
      sessionId: input.sessionId,
      newMessage: { role: 'user', parts: [{ text: input.message }] },
      stateDelta: { [CALLER_STATE_KEY]: input.caller },
      ...(observer?.onEvent ? { runConfig: { streamingMode: StreamingMode.SSE } } : {}),
    });
    for await (const event of events) {
      observer?.onEvent?.(event);
      if (event.errorCode) {
        modelError = {
          code: toModelErrorCode(event.errorCode),
          reason: `${event.errorCode}: ${event.errorMessage ?? 'no detail'}`,
        };
        continue;
      }
      ticketId = ticketIdIn(event) ?? ticketId;
      retrieved.collect(event);
      if (event.author === 'user' || !isFinalResponse(event)) continue;
      const text = stringifyContent(event).trim();
      if (text && isAgentName(event.author)) outcome = { agent: event.author, reply: text };
    }
  } catch (error) {
    // e.g. the model transferred to an agent that does not exist, or called an unknown tool.
    const reason = error instanceof Error ? error.message : String(error);
    throw new TurnFailedError('agent_error', failure(reason));
  }
  if (modelError) throw new TurnFailedError(modelError.code, failure(modelError.reason));
  if (!outcome) throw new TurnFailedError('empty_reply', failure());
  const checked = checkReplyCitations(outcome.reply, retrieved);
  return {
    agent: outcome.agent,
    reply: checked.reply,
    ...(ticketId ? { ticketId } : {}),
    sources: checked.sources,
    removedCitations: checked.removed,
  };
}
