import { DatabaseUnavailable } from '@repo/pg-kit';
import { ThreadBusy } from '../locks/lock-errors.js';
import type { OrphanedThreads } from '../persistence/persistence.js';
import type { Thread } from '../threads/thread.js';
import { withLockedThread } from './locked-thread.js';
import { now, type OperationDeps } from './operation-deps.js';
import { resumeThread } from './retry-thread.js';

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
 * the others skip it as busy. Under the lease the thread is read again and left alone unless it is
 * still `drafting` (another instance may have settled it since the list was read), and only then is
 * the attempt counted, before it is made: a thread whose recovery keeps dying with its process is
 * failed (`recovery_failed`, retryable by hand) after `maxAttempts`. `stopped` ends a round early
 * (shutdown), between threads.
 */
export async function recoverOrphans(
  deps: OperationDeps,
  orphans: OrphanedThreads,
  settings: Pick<OrphanRecoverySettings, 'maxAttempts'>,
  stopped: () => boolean = () => false,
): Promise<number> {
  let recovered = 0;
  for (const threadId of await orphans.find(BATCH)) {
    if (stopped()) break;
    try {
      const attempt = await withLockedThread(deps, threadId, async (thread) => {
        if (thread.status !== 'drafting') return undefined;
        const attempts = await orphans.countAttempt(threadId);
        if (attempts > settings.maxAttempts) await failOrphan(deps, thread, attempts - 1);
        else await resumeThread(deps, thread);
        return attempts;
      });
      await orphans.forget(threadId);
      if (attempt === undefined) continue;
      recovered += 1;
      deps.logger.info({ thread_id: threadId, attempt }, 'orphaned thread recovered');
    } catch (error) {
      if (error instanceof ThreadBusy) continue;
      // A model failure leaves it `failed` with its reason (resumeThread recorded it): settled too.
      const settled = (await deps.threads.get(threadId))?.status !== 'drafting';
      if (settled) await orphans.forget(threadId);
      deps.logger.warn({ thread_id: threadId, err: error }, 'orphaned thread not recovered');
    }
  }
  return recovered;
}

/** Gives up on an orphan (its lease held): `failed` with `recovery_failed`, in its history too. */
async function failOrphan(deps: OperationDeps, thread: Thread, tries: number): Promise<Thread> {
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
}

/** Runs the recovery now and every `intervalMs`, one round at a time; `stop()` waits for the round. */
export function startOrphanRecovery(
  deps: OperationDeps,
  orphans: OrphanedThreads,
  settings: OrphanRecoverySettings,
) {
  let round: Promise<unknown> | undefined;
  let stopping = false;
  const run = () => {
    round ??= recoverOrphans(deps, orphans, settings, () => stopping)
      .catch((error: unknown) => {
        // The database away is logged once by the persistence; the next round retries.
        if (!(error instanceof DatabaseUnavailable))
          deps.logger.warn({ err: error }, 'orphan recovery round failed');
      })
      .finally(() => (round = undefined));
    return round;
  };
  void run();
  const timer = setInterval(() => void run(), settings.intervalMs);
  timer.unref();
  return {
    stop: async () => {
      stopping = true;
      clearInterval(timer);
      await round;
    },
  };
}
