import type { BaseSessionService } from '@google/adk';
import { LRUCache } from 'lru-cache';
import { SessionQueues } from './session-queues.js';
import type { Outbox } from '@repo/webhooks';
import {
  runTurnSteps,
  type SessionSettings,
  type SessionTurns,
  type TurnTranscript,
} from './session-turns.js';
import { mayReach, type SessionAccess } from './session-access.js';
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

/**
 * The sessions kept in memory, bounded: idle ones in an LRU cache (expiry, eviction), busy ones out
 * of it. A session leaving for good has its ADK session deleted in its queue, so its id starts afresh.
 */
export class SessionStore implements SessionTurns {
  private readonly idle: LRUCache<string, KeptSession>;
  /** Sessions out of the LRU while work on them runs or waits; undefined until created, or deleted. */
  private readonly busy = new Map<string, KeptSession | undefined>();
  private readonly queues: SessionQueues;

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
    this.queues = new SessionQueues(options.maxQueuedPerSession, {
      busy: (sessionId) => {
        if (this.busy.has(sessionId)) return;
        // An expired session is dropped by `get` (dispose 'expire' → forget), which queues the
        // deletion of its ADK session first: the work that made it busy waits behind it.
        this.busy.set(sessionId, this.idle.get(sessionId));
        this.idle.delete(sessionId);
      },
      idle: (sessionId) => {
        const kept = this.busy.get(sessionId);
        this.busy.delete(sessionId);
        if (kept) this.idle.set(sessionId, kept);
      },
    });
  }

  /** Sessions kept, idle or busy. */
  count(): number {
    let busy = 0;
    for (const kept of this.busy.values()) if (kept) busy += 1;
    return this.idle.size + busy;
  }

  queued(sessionId: string): number {
    return this.queues.pending(sessionId);
  }

  runTurn<T>(
    sessionId: string,
    turn: (transcript: TurnTranscript) => Promise<T>,
    access?: SessionAccess,
  ): Promise<T> {
    return this.queues.runLimited(sessionId, () => {
      const kept = this.busy.get(sessionId);
      return runTurnSteps(sessionId, access, turn, {
        widgetTokenSha256: kept?.widgetTokenSha256,
        open: async () => (kept ?? (await this.create(sessionId))).transcript,
        save: async (announced) => {
          if (announced.length > 0) await this.options.outbox?.publish(announced);
        },
      });
    });
  }

  /** Reading is not a use. */
  turnsOf(sessionId: string, access?: SessionAccess): readonly Turn[] | undefined {
    const kept = this.busy.has(sessionId) ? this.busy.get(sessionId) : this.idle.peek(sessionId);
    return mayReach(access, kept?.widgetTokenSha256) ? kept?.transcript.turns : undefined;
  }

  /** The id is the service's own random choice. */
  openWidgetSession(sessionId: string, widgetTokenSha256: string): Promise<void> {
    return this.queues.run(sessionId, async () => {
      if (this.busy.get(sessionId)) throw new Error(`Session ${sessionId} exists already.`);
      const kept = await this.create(sessionId);
      kept.widgetTokenSha256 = widgetTokenSha256;
    });
  }

  delete(sessionId: string): Promise<void> {
    return this.queues.run(sessionId, async () => {
      this.busy.set(sessionId, undefined);
      const { sessionService, appName, userId } = this.options;
      await sessionService.deleteSession({ appName, userId, sessionId });
    });
  }

  /** Drops idle sessions past the TTL (used ones expire on their own); returns how many. */
  evictExpired(): number {
    const before = this.idle.size;
    this.idle.purgeStale();
    return before - this.idle.size;
  }

  /** A new session, busy: the least recently used idle ones make room. */
  private async create(sessionId: string): Promise<KeptSession> {
    const { sessionService, appName, userId } = this.options;
    await sessionService.createSession({ appName, userId, sessionId });
    const kept = { transcript: new Transcript(this.options.transcript) };
    this.busy.set(sessionId, kept);
    while (this.count() > this.options.maxSessions && this.idle.size > 0) this.idle.pop();
    return kept;
  }

  /** An idle session evicted or expired: gone now, its ADK session deleted in turn. */
  private forget(sessionId: string): void {
    // Marked busy first, so the queue's `busy` hook makes no call back into the cache here.
    this.busy.set(sessionId, undefined);
    // The in-memory session service cannot fail; a persistent one reports its own failures.
    this.delete(sessionId).catch(() => undefined);
  }
}
