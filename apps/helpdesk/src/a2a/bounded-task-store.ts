import type { Message, Task } from '@a2a-js/sdk';
import type { TaskStore } from '@a2a-js/sdk/server';
import { LRUCache } from 'lru-cache';

/** Tasks kept per instance at most; beyond it the least recently used one goes. */
const A2A_TASKS_KEPT = 10_000;
/** Bytes of tasks (as JSON) kept per instance at most; beyond it the least recently used go. */
const A2A_TASK_BYTES = 32 * 1024 * 1024;
/** How long a task stays answerable by tasks/get after its last change. */
const A2A_TASK_TTL_MS = 24 * 60 * 60 * 1000;

/** A caller's message as a task keeps it: its ids and the text parts the turn read (textOf). */
function keptMessage(message: Message): Message {
  if (message.role !== 'user') return message;
  const { kind, role, messageId, contextId, taskId } = message;
  // An id left undefined is not kept: tasks are held as JSON.
  const parts = message.parts.filter((part) => part.kind === 'text');
  return { kind, role, messageId, contextId, taskId, parts };
}

function keptTask(task: Task): Task {
  const { status } = task;
  return {
    ...task,
    status: status.message ? { ...status, message: keptMessage(status.message) } : status,
    history: task.history?.map(keptMessage),
  };
}

/**
 * The SDK's in-memory task store, bounded (its `InMemoryTaskStore` never lets go; a running task is
 * saved at each event, so it is never the least recently used). Tasks are held as JSON: the size is
 * exact, and loads are copies (the SDK appends to a loaded task's artifact parts).
 */
export class BoundedTaskStore implements TaskStore {
  private readonly tasks: LRUCache<string, string>;

  constructor(options: { max?: number; maxBytes?: number; ttlMs?: number } = {}) {
    this.tasks = new LRUCache({
      max: options.max ?? A2A_TASKS_KEPT,
      maxSize: options.maxBytes ?? A2A_TASK_BYTES,
      sizeCalculation: (json) => Buffer.byteLength(json),
      ttl: options.ttlMs ?? A2A_TASK_TTL_MS,
    });
  }

  async load(taskId: string): Promise<Task | undefined> {
    const json = this.tasks.get(taskId);
    return json === undefined ? undefined : (JSON.parse(json) as Task);
  }

  async save(task: Task): Promise<void> {
    this.tasks.set(task.id, JSON.stringify(keptTask(task)));
  }

  get size(): number {
    return this.tasks.size;
  }

  /** The bytes of JSON the kept tasks take. */
  get bytes(): number {
    return this.tasks.calculatedSize;
  }
}
