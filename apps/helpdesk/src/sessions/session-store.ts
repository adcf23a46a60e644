import type { BaseSessionService } from '@google/adk';
import { Mutex } from 'async-mutex';
import { LRUCache } from 'lru-cache';
import { tooManyWaiting } from './session-busy.js';
import type { Outbox, WebhookEvent } from '@repo/webhooks';
import {
  turnTranscript,
  type SessionSettings,
  type SessionTurns,
  type TurnTranscript,
} from './session-turns.js';
import { mayReach, sessionNotFound, type WidgetProof } from './session-access.js';
import { Transcript, type Turn } from './transcript.js';

interface SessionStoreOptions extends Omit<SessionSettings, 'history'> {
  /** Where the sessions' ADK side lives; the store creates and deletes them there. */
  sessionService: BaseSessionService;
  /** Most sessions kept; beyond it the least recently used idle session goes. */
  maxSessions: number;
  /** Where the events a turn announces go once it has finished (in process, like the sessions). */
  outbox?: Outbox;
}

/** What the store keeps of a session beside its ADK side. */
interface KeptSession {
  transcript: Transcript;
  /** The hash of the secret the public widget reaches it with, when the widget started it. */
  widgetTokenSha256?: string;
}

/** A session with turns (or its deletion) running or waiting. */
interface BusySession {
  /** Undefined until a first turn creates the session, and once it is deleted. */
  kept: KeptSession | undefined;
  /** One turn at a time: ADK's session services have no locking. */
  readonly mutex: Mutex;
  pending: number;
}

/**
 * The sessions the service keeps, bounded. Idle ones sit in an LRU cache, where they expire or are
 * evicted; a session with turns running or waiting is out of it, its turns taking its mutex in turn.
 * A session that leaves for good has its ADK session deleted under the same mutex, so a later turn
 * of its id starts afresh.
 */
export class SessionStore implements SessionTurns {
  private readonly idle: LRUCache<string, KeptSession>;
  private readonly busy = new Map<string, BusySession>();

  constructor(private readonly options: SessionStoreOptions) {
    this.idle = new LRUCache<string, KeptSession>({
      max: options.maxSessions,
      ttl: options.ttlMs,
      // Exact expiry on the injected clock, with no timer to cache the time.
      ttlResolution: 0,
      perf: { now: options.clock },
      dispose: (_kept, sessionId, reason) => {
        if (reason === 'evict' || reason === 'expire') this.forget(sessionId);
      },
    });
  }

  /** SessionTurns#count: the sessions this process keeps. */
  count(): number {
    return this.size;
  }

  /** Sessions kept, idle or busy. */
  get size(): number {
    let busy = 0;
    for (const session of this.busy.values()) if (session.kept) busy += 1;
    return this.idle.size + busy;
  }

  /** Turns of a session running or waiting. */
  queued(sessionId: string): number {
    return this.busy.get(sessionId)?.pending ?? 0;
  }

  /** SessionTurns#runTurn. */
  async runTurn<T>(
    sessionId: string,
    turn: (transcript: TurnTranscript) => Promise<T>,
    proof?: WidgetProof,
  ): Promise<T> {
    const limit = this.options.maxQueuedPerSession;
    if (this.queued(sessionId) >= limit) {
      throw tooManyWaiting(sessionId, limit);
    }
    return this.exclusive(sessionId, async (session) => {
      if (!mayReach(proof, session.kept?.widgetTokenSha256)) throw sessionNotFound(sessionId);
      session.kept ??= await this.create(sessionId);
      const announced: WebhookEvent[] = [];
      const result = await turn(turnTranscript(session.kept.transcript, announced));
      if (announced.length > 0) await this.options.outbox?.publish(announced);
      return result;
    });
  }

  /** SessionTurns#turnsOf. Reading is not a use. */
  turnsOf(sessionId: string, proof?: WidgetProof): readonly Turn[] | undefined {
    const busy = this.busy.get(sessionId);
    const kept = busy ? busy.kept : this.idle.peek(sessionId);
    return mayReach(proof, kept?.widgetTokenSha256) ? kept?.transcript.turns : undefined;
  }

  /** SessionTurns#openWidgetSession; the id is the service's own random choice. */
  openWidgetSession(sessionId: string, widgetTokenSha256: string): Promise<void> {
    return this.exclusive(sessionId, async (session) => {
      if (session.kept) throw new Error(`Session ${sessionId} exists already.`);
      session.kept = { ...(await this.create(sessionId)), widgetTokenSha256 };
    });
  }

  /** Forgets a session; a turn of it in flight finishes first. */
  delete(sessionId: string): Promise<void> {
    return this.exclusive(sessionId, (session) => this.drop(sessionId, session));
  }

  /** Drops idle sessions past the TTL (used ones expire on their own); returns how many. */
  evictExpired(): number {
    const before = this.idle.size;
    this.idle.purgeStale();
    return before - this.idle.size;
  }

  private async create(sessionId: string): Promise<KeptSession> {
    const { sessionService, appName, userId } = this.options;
    await sessionService.createSession({ appName, userId, sessionId });
    const transcript = new Transcript(this.options.transcript);
    // One session more: the least recently used idle ones make room (evicted, then forgotten).
    while (this.size >= this.options.maxSessions && this.idle.size > 0) this.idle.pop();
    return { transcript };
  }

  private async exclusive<T>(
    sessionId: string,
    task: (session: BusySession) => Promise<T>,
  ): Promise<T> {
    const session = this.checkOut(sessionId);
    try {
      return await session.mutex.runExclusive(() => task(session));
    } finally {
      this.checkIn(sessionId, session);
    }
  }

  /** Takes the session out of the LRU while it has work; counts the work. */
  private checkOut(sessionId: string): BusySession {
    let session = this.busy.get(sessionId);
    if (!session) {
      // An expired session is dropped by `get` (dispose 'expire' → forget), which queues the
      // deletion of its ADK session on a busy entry of its own: the turn waits behind it.
      const kept = this.idle.get(sessionId);
      session = this.busy.get(sessionId);
      if (!session) {
        session = { kept, mutex: new Mutex(), pending: 0 };
        this.busy.set(sessionId, session);
        this.idle.delete(sessionId);
      }
    }
    session.pending += 1;
    return session;
  }

  /** Once its last piece of work is done, a session that still exists goes back to the LRU. */
  private checkIn(sessionId: string, session: BusySession): void {
    session.pending -= 1;
    if (session.pending > 0) return;
    this.busy.delete(sessionId);
    if (session.kept) this.idle.set(sessionId, session.kept);
  }

  /** An idle session evicted or expired: gone now, its ADK session deleted in turn. */
  private forget(sessionId: string): void {
    // Only idle sessions are evicted, so none is busy; and no call back into the cache here.
    this.busy.set(sessionId, { kept: undefined, mutex: new Mutex(), pending: 0 });
    // The in-memory session service cannot fail; a persistent one reports its own failures.
    this.delete(sessionId).catch(() => undefined);
  }

  private async drop(sessionId: string, session: BusySession): Promise<void> {
    session.kept = undefined;
    const { sessionService, appName, userId } = this.options;
    await sessionService.deleteSession({ appName, userId, sessionId });
  }
}
