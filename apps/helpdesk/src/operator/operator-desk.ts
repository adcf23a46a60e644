import { randomUUID } from 'node:crypto';
import { createEvent, type BaseSessionService } from '@google/adk';
import type { TurnWebhooks } from '../chat/turn-webhooks.js';
import { sessionNotFound } from '../sessions/session-access.js';
import type { SessionSettings, SessionTurns, TurnTranscript } from '../sessions/session-turns.js';
import { conversationSummary } from './conversation-summary.js';
import { handoffWebhook, type HandoffWebhookType } from './handoff-webhooks.js';
import {
  alreadyTaken,
  notTakenOver,
  type ConversationEvent,
  type Handoff,
  type Handoffs,
} from './handoffs.js';

interface OperatorDeskDeps {
  store: SessionTurns;
  sessionService: BaseSessionService;
  handoffs: Handoffs;
  settings: Pick<SessionSettings, 'appName' | 'userId' | 'clock'>;
  webhooks?: TurnWebhooks | undefined;
  /** Observed once per takeover: how long the conversation waited for a person. */
  onTakeover?: (waitedMs: number) => void;
}

/** What the customer hears when nobody took the conversation over in time. */
const waitTimeoutText = (ticketId: string | null) =>
  'Nobody from our team is free right now. ' +
  (ticketId ? `Your ticket ${ticketId} stays open, and you ` : 'You ') +
  'stay in the queue: a person will join this conversation as soon as one is free. ' +
  'Meanwhile the assistant keeps answering.';

/**
 * The operators' side of a conversation (queue, takeover, replies, hand back) and what a customer's
 * message does while a person holds it. Both sides' messages go into the transcript and the ADK
 * history (under the session's turn lock), so the agents see them once it is handed back.
 */
export function createOperatorDesk(deps: OperatorDeskDeps) {
  const { handoffs, settings } = deps;
  const at = () => new Date(settings.clock()).toISOString();
  const webhooks = deps.webhooks?.outbox.enabled ? deps.webhooks : undefined;
  const announce = (type: HandoffWebhookType, entry: Handoff, actor: string) =>
    webhooks ? [handoffWebhook(type, entry, actor, webhooks.includeContent)] : [];

  /**
   * A message while a person holds the conversation, the customer's or `operator`'s: a live event,
   * a transcript turn and an ADK history event (the turn holds the session).
   */
  const post = async (
    transcript: TurnTranscript,
    sessionId: string,
    text: string,
    operator?: string,
  ): Promise<ConversationEvent> => {
    const when = at();
    const by = operator === undefined ? {} : { operator };
    const role = operator === undefined ? 'user' : 'operator';
    const event = await handoffs.record({
      session_id: sessionId,
      type: role === 'user' ? 'customer_message' : 'operator_message',
      data: { ...by, text, at: when },
    });
    transcript.append([{ role, agent: null, ...by, text, at: when, event_id: event.id }]);
    const { appName, userId } = settings;
    const session = await deps.sessionService.getSession({ appName, userId, sessionId });
    const content = { role: role === 'user' ? 'user' : 'model', parts: [{ text }] };
    if (session) {
      const history = createEvent({ invocationId: randomUUID(), author: role, content });
      await deps.sessionService.appendEvent({ session, event: history });
    }
    return event;
  };

  const holds = (entry: Handoff | undefined, operator: string) =>
    entry?.state === 'taken' && entry.operator === operator;
  const holding = async (sessionId: string, operator: string) => {
    if (!holds(await handoffs.get(sessionId), operator)) throw notTakenOver(sessionId);
  };

  return {
    queue: async () => {
      // The cursor first: a stream opened after it replays what the list may already show.
      const cursor = await handoffs.cursor();
      return { conversations: await handoffs.list(), cursor };
    },

    conversation: async (sessionId: string) => {
      const cursor = await handoffs.cursor();
      const entry = await handoffs.get(sessionId);
      const turns = await deps.store.turnsOf(sessionId);
      if (!turns) throw sessionNotFound(sessionId);
      return { entry: entry ?? null, turns, cursor };
    },

    takeOver: async (sessionId: string, operator: string): Promise<Handoff> => {
      const current = await handoffs.get(sessionId);
      if (holds(current, operator)) return current!;
      const taken = await handoffs.change(sessionId, (waiting) => {
        if (waiting.state === 'taken') throw alreadyTaken(sessionId, waiting.operator);
        const entry: Handoff = { ...waiting, state: 'taken', operator, taken_at: at() };
        return {
          entry,
          event: { session_id: sessionId, type: 'taken_over', data: { operator } },
          announce: announce('conversation.taken_over', entry, operator),
        };
      });
      deps.onTakeover?.(Date.parse(taken!.taken_at!) - Date.parse(taken!.requested_at));
      return taken!;
    },

    reply: async (
      sessionId: string,
      operator: string,
      text: string,
    ): Promise<ConversationEvent> => {
      await holding(sessionId, operator);
      return deps.store.runTurn(sessionId, async (transcript) => {
        // Checked again holding the session: a hand back may have come in between.
        await holding(sessionId, operator);
        return post(transcript, sessionId, text, operator);
      });
    },

    handBack: async (sessionId: string, operator: string): Promise<void> => {
      await handoffs.change(sessionId, (entry) => {
        if (!holds(entry, operator)) throw notTakenOver(sessionId);
        return {
          entry: undefined,
          event: { session_id: sessionId, type: 'handed_back', data: { operator } },
          announce: announce('conversation.handed_back', entry, operator),
        };
      });
    },

    entry: (sessionId: string) => handoffs.get(sessionId),

    /** The person holding the conversation, if one does: the agents then stay out of it. */
    heldBy: async (sessionId: string): Promise<string | undefined> => {
      const entry = await handoffs.get(sessionId);
      return entry?.state === 'taken' ? (entry.operator ?? undefined) : undefined;
    },

    /** A customer's message while a person holds the conversation: no turn of the agents. */
    customerMessage: async (sessionId: string, text: string, transcript: TurnTranscript) => {
      await post(transcript, sessionId, text);
    },

    /** A ticket was opened (the escalation agent): the conversation waits for a person. */
    requestHuman: async (sessionId: string, ticketId: string, actor: string) => {
      const turns = (await deps.store.turnsOf(sessionId)) ?? [];
      const entry: Handoff = {
        session_id: sessionId,
        state: 'waiting',
        operator: null,
        reason: 'escalation',
        ticket_id: ticketId,
        summary: conversationSummary(turns, ticketId),
        requested_at: at(),
        taken_at: null,
        wait_notified_at: null,
      };
      await handoffs.request(entry, {
        event: {
          session_id: sessionId,
          type: 'handoff_requested',
          data: { reason: entry.reason, ticket_id: ticketId, summary: entry.summary },
        },
        announce: announce('conversation.handoff_requested', entry, actor),
      });
    },

    /** Tells each customer who waited longer than `waitMs` (once); they stay in the queue. */
    tellOverdue: async (waitMs: number): Promise<number> => {
      const now = settings.clock();
      const overdue = await handoffs.claimOverdue(new Date(now - waitMs), new Date(now));
      for (const entry of overdue) {
        await handoffs.record({
          session_id: entry.session_id,
          type: 'wait_timeout',
          data: { text: waitTimeoutText(entry.ticket_id) },
        });
      }
      return overdue.length;
    },

    forget: (sessionId: string) => handoffs.forget(sessionId),

    /** Takes conversations whose session expired or was deleted out of the queue (the sweep). */
    forgetGone: async () => {
      for (const entry of await handoffs.list()) {
        if (!(await deps.store.turnsOf(entry.session_id))) await handoffs.forget(entry.session_id);
      }
      await handoffs.forgetOrphanEvents();
    },
    /** The live events, for streams (LiveFeed, streamLiveEvents). */
    live: handoffs as Pick<Handoffs, 'eventsAfter' | 'cursor'>,
    waitingCount: async () =>
      (await handoffs.list()).filter((entry) => entry.state === 'waiting').length,
  };
}

export type OperatorDesk = ReturnType<typeof createOperatorDesk>;
