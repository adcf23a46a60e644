import { HttpError } from '@repo/http-kit';
import type { WebhookEvent } from '@repo/webhooks';
import { z } from 'zod';

/** A conversation in the operators' queue: waiting for a person, or held by one. */
export const handoffSchema = z.object({
  session_id: z.string(),
  state: z.enum(['waiting', 'taken']),
  operator: z.string().nullable().describe('Who holds it (state `taken`).'),
  reason: z.enum(['escalation']),
  ticket_id: z.string().nullable(),
  summary: z.string().describe('The ticket and the customer’s latest messages, as written.'),
  requested_at: z.iso.datetime(),
  taken_at: z.iso.datetime().nullable(),
  wait_notified_at: z.iso
    .datetime()
    .nullable()
    .describe('When the customer was told nobody was free in time (HANDOFF_WAIT_SECONDS).'),
});

export type Handoff = z.infer<typeof handoffSchema>;

type ConversationEventType =
  | 'handoff_requested'
  | 'taken_over'
  | 'handed_back'
  | 'customer_message'
  | 'operator_message'
  | 'wait_timeout';

/** Something that happened in a conversation; `id` increases in the order events became visible. */
export interface ConversationEvent {
  id: number;
  session_id: string;
  type: ConversationEventType;
  data: Record<string, unknown>;
  at: string;
}

/** The most events eventsAfter reads at a time. */
export const EVENTS_PAGE = 500;

export type NewConversationEvent = Omit<ConversationEvent, 'id' | 'at'>;

/** The event of a change to a queue entry, and the webhook events committed with it. */
export interface HandoffChange {
  event: NewConversationEvent;
  announce: WebhookEvent[];
}

/** A change of a queued entry: the entry after it (undefined: it leaves the queue) and its event. */
export type HandoffUpdate = (entry: Handoff) => HandoffChange & { entry: Handoff | undefined };

/** The operators' queue and the conversations' live events: MemoryHandoffs or PostgresHandoffs. */
export interface Handoffs {
  get(sessionId: string): Promise<Handoff | undefined>;
  list(): Promise<Handoff[]>;
  /** Queues the entry and records `change`, unless its conversation is queued already. */
  request(entry: Handoff, change: HandoffChange): Promise<void>;
  /** Changes the entry with `update` (which throws to refuse), atomically; the entry after it. */
  change(sessionId: string, update: HandoffUpdate): Promise<Handoff | undefined>;
  /** Records an event of a conversation (a message). */
  record(event: NewConversationEvent): Promise<ConversationEvent>;
  /** Events after `after` (all sessions', or one's), oldest first, at most EVENTS_PAGE. */
  eventsAfter(after: number, sessionId?: string): Promise<ConversationEvent[]>;
  /** The id of the latest event (0 when none). */
  cursor(): Promise<number>;
  /** Waiting entries requested before `before` whose customer was not told yet, now marked told. */
  claimOverdue(before: Date, now: Date): Promise<Handoff[]>;
  /** The session is gone: its entry and its events go. */
  forget(sessionId: string): Promise<void>;
  /** Events of sessions that are gone (handed back before they expired): the sweep's. */
  forgetOrphanEvents(): Promise<void>;
}

export const notInQueue = (sessionId: string) =>
  new HttpError(404, 'not_in_queue', `Conversation ${sessionId} is not waiting for a person.`, {
    extra: { session_id: sessionId },
  });

export const alreadyTaken = (sessionId: string, operator: string | null) =>
  new HttpError(409, 'already_taken', `Conversation ${sessionId} is held by another operator.`, {
    extra: { session_id: sessionId, operator },
  });

export const notTakenOver = (sessionId: string) =>
  new HttpError(
    409,
    'not_taken_over',
    `Conversation ${sessionId} is not held by you: take it over first.`,
    { extra: { session_id: sessionId } },
  );
