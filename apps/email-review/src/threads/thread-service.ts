import { randomUUID } from 'node:crypto';
import type { StateSnapshot } from '@langchain/langgraph';
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

  /*
   * WRITE ORDER. The checkpoint is the source of truth (`send` reads the draft from it); the index is
   * a view derived from it, written second. A change to the draft therefore first marks the index
   * `drafting` (not reviewable: approve answers 409), then writes the checkpoint, then the new view.
   * A crash between the writes leaves the thread `drafting` until retry re-derives the view from the
   * checkpoint, so approve can never send a draft the reviewer was not shown.
   */

  async function markDrafting(thread: Thread): Promise<Thread> {
    const drafting: Thread = { ...thread, status: 'drafting', updated_at: now() };
    await threads.save(drafting);
    return drafting;
  }

  async function replaceDraft(thread: Thread, draft: string): Promise<Thread> {
    await markDrafting(thread);
    // Recorded as the draft step's output, so the graph stays paused before `send`.
    await graph.updateState(stateConfig(thread.thread_id), { reply: draft, revision: 1 }, 'draft');
    const edited: Thread = { ...thread, draft, revision: thread.revision + 1, updated_at: now() };
    await threads.save(edited);
    return edited;
  }

  async function redraft(thread: Thread, instructions: string): Promise<Thread> {
    const drafting = await markDrafting(thread);
    // Recorded as the classify step's output, so `draft` is what runs next.
    await graph.updateState(stateConfig(thread.thread_id), { instructions }, 'classify');
    return runWorkflow(drafting, () => graph.invoke(null, runConfig(thread.thread_id)));
  }

  /** Nothing was checkpointed (the first run died early): start again from the email the index kept. */
  function startOver(thread: Thread): Promise<Thread> {
    return runWorkflow(thread, () =>
      graph.invoke({ inbound: thread.inbound }, runConfig(thread.thread_id)),
    );
  }

  /**
   * The workflow has nothing left to run without a reviewer (paused before `send`, or finished), but
   * the index missed it: the process died between the two writes. The view is re-derived; resuming
   * here would run `send` without an approval.
   */
  async function rederiveView(thread: Thread, values: Partial<EmailStateValues>): Promise<Thread> {
    const recovered = projectThread(thread, values, now());
    await threads.save(recovered);
    return recovered;
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
        return 'draft' in edit
          ? replaceDraft(thread, edit.draft)
          : redraft(thread, edit.instructions);
      });
    },

    /** Resumes the paused workflow, which runs `send`. */
    approveThread(threadId: string): Promise<Thread> {
      return changeThread(threadId, async (thread) => {
        requireAwaitingReview(thread);
        return runWorkflow(thread, () => graph.invoke(null, runConfig(threadId)));
      });
    },

    /**
     * Ends the workflow without sending: recorded as the outcome of the `send` step, which never runs.
     * No `drafting` mark first (see WRITE ORDER): a crash between the two writes leaves a finished
     * graph, and approving a finished graph sends nothing.
     */
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
     * Resumes a `failed` thread from its last checkpoint (completed steps are not repeated). Also takes
     * a `drafting` thread whose lock is free: its run, or a change's second write, died with its
     * process (the recovery path in the README). 409 for any other status.
     */
    retryThread(threadId: string): Promise<Thread> {
      return changeThread(threadId, async (thread) => {
        if (thread.status !== 'failed' && thread.status !== 'drafting')
          throw new ThreadNotRetryable(thread);
        const snapshot = await graph.getState(stateConfig(threadId));
        const values = snapshot.values as Partial<EmailStateValues>;
        if (values.inbound === undefined) return startOver(thread);
        if (isSettled(snapshot)) return rederiveView(thread, values);
        return runWorkflow(thread, () => graph.invoke(null, runConfig(threadId)));
      });
    },
  };
}

/** Whether the checkpoint is at rest: no failed step, and nothing to run but an unapproved `send`. */
function isSettled(snapshot: StateSnapshot): boolean {
  return (
    snapshot.tasks.every((task) => !task.error) && snapshot.next.every((node) => node === 'send')
  );
}

export type ThreadService = ReturnType<typeof createThreadService>;
