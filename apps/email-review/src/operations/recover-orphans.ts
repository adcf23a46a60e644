import { ThreadBusy } from '../locks/lock-errors.js';
import type { OrphanedThreads } from '../persistence/persistence.js';
import type { Thread } from '../threads/thread.js';
import { ThreadNotRetryable } from '../threads/thread-errors.js';
import { withLockedThread } from './locked-thread.js';
import { now, type OperationDeps } from './operation-deps.js';
import { retryThread } from './retry-thread.js';

export interface OrphanRecoverySettings {
  /** How often to look for orphans (one look also runs at start). */
  intervalMs: number;
  /** Recoveries of one thread before it is failed instead (each one may have died too). */
  maxAttempts: number;
}

/** Threads looked at per round; the rest wait for the next. */
const BATCH = 20;

/**
 * Resumes threads a crash left `drafting` (their holder's lease expired), like `retry` would, with no
 * request from anyone. Every instance runs it; each thread's lease lets exactly one of them take it,
 * the others skip it as busy. The attempt is counted before it is made, so a thread whose recovery
 * keeps dying with its process is failed (`recovery_failed`, retryable by hand) after `maxAttempts`.
 */
export async function recoverOrphans(
  deps: OperationDeps,
  orphans: OrphanedThreads,
  settings: Pick<OrphanRecoverySettings, 'maxAttempts'>,
): Promise<number> {
  let recovered = 0;
  for (const threadId of await orphans.find(BATCH)) {
    const attempts = await orphans.countAttempt(threadId);
    try {
      if (attempts > settings.maxAttempts) await failOrphan(deps, threadId, attempts - 1);
      else await retryThread(deps, threadId);
      await orphans.forget(threadId);
      recovered += 1;
      deps.logger.info({ thread_id: threadId, attempt: attempts }, 'orphaned thread recovered');
    } catch (error) {
      if (error instanceof ThreadBusy || error instanceof ThreadNotRetryable) continue;
      // A model failure leaves it `failed` with its reason (retryThread recorded it): that is settled too.
      const settled = (await deps.threads.get(threadId))?.status !== 'drafting';
      if (settled) await orphans.forget(threadId);
      deps.logger.warn({ thread_id: threadId, err: error }, 'orphaned thread not recovered');
    }
  }
  return recovered;
}

function failOrphan(deps: OperationDeps, threadId: string, tries: number): Promise<Thread> {
  return withLockedThread(deps, threadId, async (thread) => {
    if (thread.status !== 'drafting') return thread;
    const failed: Thread = {
      ...thread,
      status: 'failed',
      error: {
        code: 'recovery_failed',
        message: `The run was interrupted and ${tries} recoveries did not finish it; POST /threads/{id}/retry tries again.`,
      },
      updated_at: now(deps),
    };
    const at = failed.updated_at;
    await deps.threads.save(failed, [
      { type: 'failed', at, actor: 'system', code: 'recovery_failed' },
    ]);
    return failed;
  });
}

/** Runs the recovery now and every `intervalMs`, one round at a time; `stop()` waits for the round. */
export function startOrphanRecovery(
  deps: OperationDeps,
  orphans: OrphanedThreads,
  settings: OrphanRecoverySettings,
) {
  let round: Promise<unknown> | undefined;
  const run = () => {
    round ??= recoverOrphans(deps, orphans, settings)
      .catch(() => {
        // The database is away: its outage is logged once by the persistence; the next round retries.
      })
      .finally(() => (round = undefined));
    return round;
  };
  void run();
  const timer = setInterval(() => void run(), settings.intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await round;
    },
  };
}
