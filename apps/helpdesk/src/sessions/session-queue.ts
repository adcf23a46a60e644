/**
 * Runs tasks one after another per key, and tasks of different keys in parallel.
 * ADK's session services have no locking: two turns of one session running at once would
 * interleave their events in its history.
 */
export class SessionQueue {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly depths = new Map<string, number>();

  /** Tasks waiting or running for `key`. */
  depth(key: string): number {
    return this.depths.get(key) ?? 0;
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    this.depths.set(key, this.depth(key) + 1);
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      const remaining = this.depth(key) - 1;
      if (remaining > 0) this.depths.set(key, remaining);
      else this.depths.delete(key);
      // Forget idle keys, so the map holds only sessions with work in flight.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
