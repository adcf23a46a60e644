import type { WebhookEvent } from '@repo/webhooks';
import type { HistoryLimits } from './condense-history.js';
import type { WidgetProof } from './session-access.js';
import type { Turn, TranscriptLimits } from './transcript.js';

/** How sessions are kept, with the defaults applied: what any place sessions live must honour. */
export interface SessionSettings {
  appName: string;
  userId: string;
  /** Sessions unused for longer are gone. */
  ttlMs: number;
  /** Messages of one session waiting or running in this process before 429. */
  maxQueuedPerSession: number;
  history: HistoryLimits;
  transcript: TranscriptLimits;
  clock: () => number;
}

/** What a turn may do to its session's transcript. */
export interface TurnTranscript {
  append(turns: Turn[]): void;
  /** Events the finished turn reports (e.g. `ticket.created`), written only with its session write. */
  announce(events: WebhookEvent[]): void;
}

/** A turn's view of `transcript`, collecting what it announces into `announced`. */
export function turnTranscript(
  transcript: { append(turns: Turn[]): void },
  announced: WebhookEvent[],
): TurnTranscript {
  return {
    append: (turns) => transcript.append(turns),
    announce: (events) => announced.push(...events),
  };
}

/** Where sessions live and how their turns are serialized: memory (SessionStore) or PostgreSQL. */
export interface SessionTurns {
  /**
   * Runs `turn` once the session's earlier turns are done; an unknown id starts a session. With a
   * widget's `proof`, only a session that keeps its secret runs it (else 404 session_not_found,
   * checked while the turn holds the session), and an unknown id starts nothing.
   */
  runTurn<T>(
    sessionId: string,
    turn: (transcript: TurnTranscript) => Promise<T>,
    proof?: WidgetProof,
  ): Promise<T>;
  /** The transcript; undefined for an unknown or expired session or one `proof` does not reach. */
  turnsOf(
    sessionId: string,
    proof?: WidgetProof,
  ): readonly Turn[] | undefined | Promise<readonly Turn[] | undefined>;
  /** Starts a session for the public widget, keeping the hash of its secret (widget-secret.ts). */
  openWidgetSession(sessionId: string, widgetTokenSha256: string): Promise<void>;
  /** Forgets a session; a turn of it in flight finishes first. */
  delete(sessionId: string): Promise<void>;
  /** Drops idle sessions past the TTL; returns how many. */
  evictExpired(): number | Promise<number>;
  /** Turns of a session running or waiting in this process. */
  queued(sessionId: string): number;
  /** Sessions kept and not expired: in this process's memory, or in the database (every instance's). */
  count(): number | Promise<number>;
}
