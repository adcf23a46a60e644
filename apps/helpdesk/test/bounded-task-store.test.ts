import type { Task } from '@a2a-js/sdk';
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
});
