import type { WebhookEvent } from '@repo/webhooks';
import type { HistoryLimits } from './condense-history.js';
import { mayReach, sessionNotFound, type SessionAccess } from './session-access.js';
import type { Transcript, Turn, TranscriptLimits } from './transcript.js';

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

/** What `runTurnSteps` needs of the place a turn's session is kept. */
interface TurnSession {
  /** The hash of the widget's secret the session keeps; none for a new session. */
  widgetTokenSha256: string | null | undefined;
  /** The session ready for the turn (created if new): its transcript. */
  open(): Transcript | Promise<Transcript>;
  /** After the turn succeeded: the session kept, with the events the turn announced. */
  save(announced: WebhookEvent[]): Promise<void>;
  /** After the turn failed: it changed nothing. */
  failed?(): Promise<void>;
}

/**
 * The steps of a turn wherever its session lives: only if `access` may reach the session (else
 * 404), opened, the turn run on its transcript, then saved, or `failed` when the turn throws.
 */
export async function runTurnSteps<T>(
  sessionId: string,
  access: SessionAccess | undefined,
  turn: (transcript: TurnTranscript) => Promise<T>,
  session: TurnSession,
): Promise<T> {
  if (!mayReach(access, session.widgetTokenSha256)) throw sessionNotFound(sessionId);
  const transcript = await session.open();
  const announced: WebhookEvent[] = [];
  let result: T;
  try {
    result = await turn({
      append: (turns) => transcript.append(turns),
      announce: (events) => announced.push(...events),
    });
  } catch (error) {
    await session.failed?.();
    throw error;
  }
  await session.save(announced);
  return result;
}

/** Where sessions live and how their turns are serialized: memory (SessionStore) or PostgreSQL. */
export interface SessionTurns {
  /**
   * Runs `turn` once the session's earlier turns are done; an unknown id starts a session. A
   * widget's `access` reaches only a session keeping its secret (else 404, checked in the turn).
   */
  runTurn<T>(
    sessionId: string,
    turn: (transcript: TurnTranscript) => Promise<T>,
    access?: SessionAccess,
  ): Promise<T>;
  /** The transcript; undefined for an unknown or expired session or one `access` does not reach. */
  turnsOf(
    sessionId: string,
    access?: SessionAccess,
  ): readonly Turn[] | undefined | Promise<readonly Turn[] | undefined>;
  /** Starts a session for the public widget, keeping the hash of its secret (session-access.ts). */
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
