import { SessionQueue } from '../src/sessions/session-queue.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('SessionQueue', () => {
  it('when tasks share a key, then each starts only after the previous one settled', async () => {
    const queue = new SessionQueue();
    const log: string[] = [];
    const gate = deferred();

    const first = queue.run('s', async () => {
      log.push('first started');
      await gate.promise;
      log.push('first done');
    });
    const second = queue.run('s', async () => {
      log.push('second started');
    });
    await Promise.resolve();
    expect(log).toEqual(['first started']);
    expect(queue.depth('s')).toBe(2);

    gate.resolve();
    await Promise.all([first, second]);

    expect(log).toEqual(['first started', 'first done', 'second started']);
  });

  it('when tasks have different keys, then they run at the same time', async () => {
    const queue = new SessionQueue();
    const gate = deferred();
    let otherRan = false;

    const blocked = queue.run('a', () => gate.promise);
    await queue.run('b', async () => {
      otherRan = true;
    });

    expect(otherRan).toBe(true);
    gate.resolve();
    await blocked;
  });

  it('when a task fails, then its caller gets the error and the next task still runs', async () => {
    const queue = new SessionQueue();

    const failing = queue.run('s', async () => {
      throw new Error('boom');
    });
    const next = queue.run('s', async () => 'ran');

    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });

  it('when a key has no more work, then the queue forgets it', async () => {
    const queue = new SessionQueue();

    await queue.run('s', async () => undefined);
    await new Promise((resolve) => setImmediate(resolve));

    expect(queue.depth('s')).toBe(0);
    expect((queue as unknown as { tails: Map<string, unknown> }).tails.size).toBe(0);
  });
});
