import type { Message, Task } from '@a2a-js/sdk';
import { BoundedTaskStore } from '../src/a2a/bounded-task-store.js';

const task = (id: string): Task => ({
  kind: 'task',
  id,
  contextId: 'ctx',
  status: { state: 'completed', timestamp: new Date().toISOString() },
});

describe('the A2A task store', () => {
  it('when more tasks than it keeps are saved, then the least recently used ones go and the rest answer', async () => {
    const store = new BoundedTaskStore({ max: 3 });
    for (const id of ['t1', 't2', 't3']) await store.save(task(id));
    await store.load('t1'); // used again: t2 is now the oldest
    await store.save(task('t4'));

    expect(store.size).toBe(3);
    expect(await store.load('t2')).toBeUndefined();
    for (const id of ['t1', 't3', 't4']) expect((await store.load(id))?.id).toBe(id);
  });

  it('when a task has not changed for its time to live, then it is gone', async () => {
    const store = new BoundedTaskStore({ ttlMs: 50 });
    await store.save(task('old'));
    await new Promise((resolve) => setTimeout(resolve, 120));
    await store.save(task('new'));

    expect(await store.load('old')).toBeUndefined();
    expect((await store.load('new'))?.id).toBe('new');
  });

  it('when a loaded task is changed by its caller, then the stored one is not', async () => {
    const store = new BoundedTaskStore();
    await store.save(task('t1'));
    const loaded = (await store.load('t1'))!;
    loaded.status = { state: 'failed' };

    expect((await store.load('t1'))!.status.state).toBe('completed');
  });

  it("when a task holds a caller message with a 60 KB data part and metadata, then only its text is kept; the agent's small data parts stay", async () => {
    const store = new BoundedTaskStore();
    const asked: Message = {
      kind: 'message',
      role: 'user',
      messageId: 'm1',
      metadata: { note: 'n'.repeat(5_000) },
      parts: [
        { kind: 'text', text: 'What is due on INV-1001?' },
        { kind: 'data', data: { blob: 'z'.repeat(60_000) } },
        { kind: 'file', file: { bytes: 'b'.repeat(10_000), mimeType: 'text/plain' } },
      ],
    };
    const answered: Message = {
      kind: 'message',
      role: 'agent',
      messageId: 'm2',
      parts: [
        { kind: 'text', text: 'EUR 120.' },
        { kind: 'data', data: { agent: 'billing', session_id: 'ctx' } },
      ],
    };
    await store.save({ ...task('t1'), history: [asked, answered] });

    const kept = (await store.load('t1'))!;

    expect(kept.history).toEqual([
      { kind: 'message', role: 'user', messageId: 'm1', parts: [asked.parts[0]] },
      answered,
    ]);
    expect(store.bytes).toBeLessThan(1_000);
  });

  it('when the tasks saved pass the byte bound, then the least recently used go until the rest fit', async () => {
    const store = new BoundedTaskStore({ maxBytes: 10_000 });
    const sized = (id: string): Task => ({
      ...task(id),
      history: [
        {
          kind: 'message',
          role: 'user',
          messageId: id,
          parts: [{ kind: 'text', text: 'q'.repeat(3_000) }],
        },
      ],
    });
    for (const id of ['t1', 't2', 't3', 't4']) await store.save(sized(id));

    expect(store.bytes).toBeLessThanOrEqual(10_000);
    expect(await store.load('t1')).toBeUndefined();
    for (const id of ['t2', 't3', 't4']) expect((await store.load(id))?.id).toBe(id);
  });

  it('when a saved task is changed by its saver afterwards, then the stored one is not', async () => {
    const store = new BoundedTaskStore();
    const saved: Task = {
      ...task('t1'),
      artifacts: [{ artifactId: 'reply', parts: [{ kind: 'text', text: 'a' }] }],
    };
    await store.save(saved);
    saved.artifacts![0]!.parts.push({ kind: 'text', text: 'b' });

    expect((await store.load('t1'))!.artifacts![0]!.parts).toHaveLength(1);
  });
});
