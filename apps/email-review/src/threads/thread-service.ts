import { randomUUID } from 'node:crypto';
import { currentLogger } from '@repo/http-kit';
import type { Logger } from 'pino';
import { isModelFailure } from '../llm/llm-errors.js';
import type { ThreadLocks } from '../locks/thread-locks.js';
import { withThreadLock } from '../locks/with-thread-lock.js';
import type { EmailGraph } from '../workflow/graph.js';
import type { EmailStateValues } from '../workflow/state.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { describeFailure } from './failure.js';
import type { Thread, ThreadStatus } from './thread.js';
import {
  IdempotencyKeyReused,
  ThreadBusy,
  ThreadNotAwaitingReview,
  ThreadNotFound,
  ThreadNotRetryable,
  WorkflowStepFailed,
} from './thread-errors.js';
import { projectThread } from './thread-projection.js';
import type { ThreadStore } from './thread-store.js';

export interface ThreadServiceDeps {
  graph: EmailGraph;
  threads: ThreadStore;
  locks: ThreadLocks;
  logger: Logger;
  clock?: () => Date;
}

export type ThreadEdit = { draft: string } | { instructions: string };

export interface ThreadListRequest {
  status?: ThreadStatus;
  limit: number;
  cursor?: string;
}

/**
 * `durability: 'exit'` writes one checkpoint when a run stops (paused before `send`, finished, or
 * failed) instead of one per step. invoke() resolves only after that write, so every state a client
 * has been told about is durable; what is lost in a crash is a run still in progress, whose thread
 * stays `drafting` in the index and can be retried.
 */
const runConfig = (threadId: string) => ({
  configurable: { thread_id: threadId },
  durability: 'exit' as const,
});
const stateConfig = (threadId: string) => ({ configurable: { thread_id: threadId } });

/** The review workflow's operations, each holding the thread's lock while it changes the thread. */
export function createThreadService(deps: ThreadServiceDeps) {
  const { graph, threads, locks } = deps;
  const now = () => (deps.clock ? deps.clock() : new Date()).toISOString();
  const log = () => currentLogger(deps.logger);

  async function requireThread(threadId: string): Promise<Thread> {
    const thread = await threads.get(threadId);
    if (!thread) throw new ThreadNotFound(threadId);
    return thread;
  }

  /** Locks, then reads the thread: the previous holder may have changed it a moment ago. */
  async function changeThread<T>(
    threadId: string,
    change: (thread: Thread) => Promise<T>,
  ): Promise<T> {
    try {
      return await withThreadLock(locks, threadId, async () =>
        change(await requireThread(threadId)),
      );
    } catch (error) {
      // A busy lock on an id nobody knows is still an unknown thread.
      if (error instanceof ThreadBusy) await requireThread(threadId);
      throw error;
    }
  }

  /** Runs one stretch of the workflow and records its outcome, success or failure, in the index. */
  async function runWorkflow(
    thread: Thread,
    run: () => Promise<Partial<EmailStateValues>>,
  ): Promise<Thread> {
    let values: Partial<EmailStateValues>;
    try {
      values = await run();
    } catch (error) {
      const failed = await recordFailure(thread, error);
      if (isModelFailure(error))
        throw new WorkflowStepFailed(failed, failed.error!, { cause: error });
      throw error;
    }
    const next = projectThread(thread, values, now());
    await threads.save(next);
    return next;
  }

  async function recordFailure(thread: Thread, error: unknown): Promise<Thread> {
    const threadId = thread.thread_id;
    let progressed = thread;
    try {
      // The failed run's checkpoint keeps the steps it completed (e.g. the classification): show them.
      const snapshot = await graph.getState(stateConfig(threadId));
      progressed = projectThread(
        thread,
        snapshot.values as Partial<EmailStateValues>,
        thread.updated_at,
      );
    } catch (readError) {
      log().warn({ err: readError, thread_id: threadId }, 'could not read the failed run state');
    }
    const failed: Thread = {
      ...progressed,
      status: 'failed',
      error: describeFailure(error),
      updated_at: now(),
    };
    log().warn(
      { thread_id: threadId, code: failed.error!.code, err: error },
      'workflow step failed',
    );
    try {
      await threads.save(failed);
    } catch (saveError) {
      // The original failure is what the client must hear about; this one only goes to the log.
      log().error({ err: saveError, thread_id: threadId }, 'could not record the failure');
    }
    return failed;
  }

  function requireAwaitingReview(thread: Thread): void {
    if (thread.status !== 'awaiting_review') throw new ThreadNotAwaitingReview(thread);
  }

  return {
    /** Classifies and drafts; answers with the thread paused for review (or the key's earlier thread). */
    async createThread(
      inbound: string,
      idempotencyKey?: string,
    ): Promise<{ thread: Thread; created: boolean }> {
      const threadId = randomUUID();
      const at = now();
      const fresh: Thread = {
        thread_id: threadId,
        status: 'drafting',
        inbound,
        classification: null,
        draft: null,
        revision: 0,
        created_at: at,
        updated_at: at,
        sent_at: null,
        error: null,
      };
      // Locked before it exists, so a retry can never take a thread whose first run is under way.
      return withThreadLock(locks, threadId, async () => {
        const { thread, created } = await threads.create(fresh, idempotencyKey);
        if (!created) {
          if (thread.inbound !== inbound) throw new IdempotencyKeyReused(thread.thread_id);
          return { thread, created: false };
        }
        log().info({ thread_id: threadId }, 'thread created');
        return {
          thread: await runWorkflow(thread, () => graph.invoke({ inbound }, runConfig(threadId))),
          created: true,
        };
      });
    },

    getThread: requireThread,

    async listThreads(
      request: ThreadListRequest,
    ): Promise<{ items: Thread[]; next_cursor: string | null }> {
      const page = await threads.list({
        limit: request.limit,
        ...(request.status ? { status: request.status } : {}),
        ...(request.cursor ? { before: decodeCursor(request.cursor) } : {}),
      });
      return {
        items: page.threads,
        next_cursor: page.next === undefined ? null : encodeCursor(page.next),
      };
    },

    /** Replaces the draft with the reviewer's text, or redrafts with their instructions; pauses again. */
    editThread(threadId: string, edit: ThreadEdit): Promise<Thread> {
      return changeThread(threadId, async (thread) => {
        requireAwaitingReview(thread);
        if ('draft' in edit) {
          // Recorded as the draft step's output, so the graph stays paused before `send`.
          await graph.updateState(
            stateConfig(threadId),
            { reply: edit.draft, revision: 1 },
            'draft',
          );
          const edited: Thread = {
            ...thread,
            draft: edit.draft,
            revision: thread.revision + 1,
            updated_at: now(),
          };
          await threads.save(edited);
          return edited;
        }
        // Recorded as the classify step's output, so `draft` is what runs next.
        await graph.updateState(
          stateConfig(threadId),
          { instructions: edit.instructions },
          'classify',
        );
        const drafting: Thread = { ...thread, status: 'drafting', updated_at: now() };
        await threads.save(drafting);
        return runWorkflow(drafting, () => graph.invoke(null, runConfig(threadId)));
      });
    },

    /** Resumes the paused workflow, which runs `send`. */
    approveThread(threadId: string): Promise<Thread> {
      return changeThread(threadId, async (thread) => {
        requireAwaitingReview(thread);
        return runWorkflow(thread, () => graph.invoke(null, runConfig(threadId)));
      });
    },

    /** Ends the workflow without sending: recorded as the outcome of the `send` step, which never runs. */
    rejectThread(threadId: string): Promise<Thread> {
      return changeThread(threadId, async (thread) => {
        requireAwaitingReview(thread);
        const at = now();
        await graph.updateState(stateConfig(threadId), { rejected_at: at }, 'send');
        const rejected: Thread = { ...thread, status: 'rejected', updated_at: at };
        await threads.save(rejected);
        return rejected;
      });
    },

    /**
     * Resumes a failed thread from its last checkpoint (completed steps are not repeated). Also takes a
     * `drafting` thread whose lock is free — its run died with its process — and finishes it.
     */
    retryThread(threadId: string): Promise<Thread> {
      return changeThread(threadId, async (thread) => {
        if (thread.status !== 'failed' && thread.status !== 'drafting')
          throw new ThreadNotRetryable(thread);
        const snapshot = await graph.getState(stateConfig(threadId));
        const values = snapshot.values as Partial<EmailStateValues>;
        if (values.inbound === undefined) {
          // Nothing was checkpointed: start from the email the index kept.
          return runWorkflow(thread, () =>
            graph.invoke({ inbound: thread.inbound }, runConfig(threadId)),
          );
        }
        const settled =
          snapshot.tasks.every((task) => !task.error) &&
          snapshot.next.every((node) => node === 'send');
        if (thread.status === 'drafting' && settled) {
          // The run completed but its process died before updating the index.
          const recovered = projectThread(thread, values, now());
          await threads.save(recovered);
          return recovered;
        }
        return runWorkflow(thread, () => graph.invoke(null, runConfig(threadId)));
      });
    },
  };
}

export type ThreadService = ReturnType<typeof createThreadService>;
