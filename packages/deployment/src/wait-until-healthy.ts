import { setTimeout as delay } from 'node:timers/promises';

export class NotReadyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotReadyError';
  }
}

/**
 * Polls `url` until it answers 2xx. Fails as soon as `exited` settles (the process died: no point waiting for it)
 * or when `timeoutMs` has passed.
 */
export async function waitUntilHealthy(
  url: string,
  options: { name: string; timeoutMs: number; exited: Promise<unknown>; intervalMs?: number },
): Promise<void> {
  let processExited = false;
  void options.exited.then(() => (processExited = true));
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    if (processExited) throw new NotReadyError(`${options.name} exited before it was ready`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // Not listening yet: try again until the deadline.
    }
    await delay(options.intervalMs ?? 150);
  }
  throw new NotReadyError(`${options.name} did not answer ${url} within ${options.timeoutMs} ms`);
}
