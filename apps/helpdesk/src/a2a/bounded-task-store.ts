import type { Task } from '@a2a-js/sdk';
import type { TaskStore } from '@a2a-js/sdk/server';
import { LRUCache } from 'lru-cache';

/** Tasks kept per instance at most; beyond it the least recently used one goes. */
export const A2A_TASKS_KEPT = 10_000;
/** How long a task stays answerable by tasks/get after its last change. */
export const A2A_TASK_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The SDK's in-memory task store, bounded: `InMemoryTaskStore` is a Map that never lets go, so
 * every message/send kept its task (message, status, reply) for the life of the process. Here a
 * task lives for a day after its last change, and at most `max` tasks are kept (a running task is
 * saved at each of its events, so it is never the least recently used). Copies in and out, as the
 * SDK's store does.
 */
export class BoundedTaskStore implements TaskStore {
  private readonly tasks: LRUCache<string, Task>;

  constructor(options: { max?: number; ttlMs?: number } = {}) {
    this.tasks = new LRUCache({
      max: options.max ?? A2A_TASKS_KEPT,
      ttl: options.ttlMs ?? A2A_TASK_TTL_MS,
    });
  }

  async load(taskId: string): Promise<Task | undefined> {
    const task = this.tasks.get(taskId);
    return task ? { ...task } : undefined;
  }

  async save(task: Task): Promise<void> {
    this.tasks.set(task.id, { ...task });
  }

  get size(): number {
    return this.tasks.size;
  }
}
