/**
 * Aborts one model call after `timeoutMs`, or when the caller's own signal aborts, and remembers
 * which of the two happened: a timeout is retried and answered 504, a caller's abort is not.
 */
export class ModelCallDeadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private expiredFlag = false;

  constructor(
    timeoutMs: number,
    private readonly outer?: AbortSignal,
  ) {
    this.timer = setTimeout(() => {
      this.expiredFlag = true;
      this.controller.abort(new Error(`model call timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    if (outer?.aborted) this.controller.abort(outer.reason);
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
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
