/**
 * Aborts one model call after `timeoutMs`, or when the caller's own signal aborts, and remembers
 * which of the two happened: a timeout is retried and answered 504, a caller's abort is not.
 */
export class ModelCallDeadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private expiredFlag = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly outer?: AbortSignal,
  ) {
    this.restart();
    if (outer?.aborted) this.controller.abort(outer.reason);
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
  }

  /** A full `timeoutMs` again from now: the wait for a stream's next chunk (see `pause`). */
  restart(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.expiredFlag = true;
      this.controller.abort(new Error(`model call timed out after ${this.timeoutMs} ms`));
    }, this.timeoutMs);
  }

  /** Stops the clock while the caller holds a chunk (ADK runs tools and agents then); `restart` goes on. */
  pause(): void {
    clearTimeout(this.timer);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get expired(): boolean {
    return this.expiredFlag;
  }

  /** Stops the clock; called as soon as the model has answered. */
  clear(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }

  private readonly onOuterAbort = () => this.controller.abort(this.outer?.reason);
}
