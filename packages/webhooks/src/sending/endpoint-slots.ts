/**
 * At most `limit` attempts in flight per endpoint: a slow or hanging endpoint fills only its own
 * slots, never another endpoint's.
 */
export class EndpointSlots {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(private readonly limit: number) {}

  async run<T>(endpoint: string, work: () => Promise<T>): Promise<T> {
    if ((this.running.get(endpoint) ?? 0) >= this.limit) {
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(endpoint) ?? [];
        queue.push(resolve);
        this.waiting.set(endpoint, queue);
      });
    } else {
      this.running.set(endpoint, (this.running.get(endpoint) ?? 0) + 1);
    }
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, or is given back.
      const next = this.waiting.get(endpoint)?.shift();
      if (next) next();
      else this.running.set(endpoint, (this.running.get(endpoint) ?? 1) - 1);
    }
  }
}
