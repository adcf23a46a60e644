import { backoffMs, type Logger } from '@repo/http-kit';

export interface SetUpRetry {
  /** What the log line names, passed through `redact`. */
  connectionString: string;
  /** Masks secrets (passwords in URLs and messages) in what is logged, e.g. llm-config's redactSecrets. */
  redact: (text: string) => string;
  logger: Logger;
  /** Give up (reject with the last error) once the next try would start after this long. */
  untilMs?: number;
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Stop trying (the service is shutting down). */
  stopped?: () => boolean;
}

/**
 * Runs `setUp` until it succeeds, waiting with backoff while the database cannot be reached: a
 * service listens meanwhile (/healthz 200, /readyz 503) instead of exiting. The wait is logged once,
 * and the recovery once.
 */
export async function setUpWithRetry(setUp: () => Promise<void>, retry: SetUpRetry): Promise<void> {
  const deadline = Date.now() + (retry.untilMs ?? Number.POSITIVE_INFINITY);
  const backoff = { firstMs: retry.firstDelayMs ?? 500, maxMs: retry.maxDelayMs ?? 10_000 };
  for (let attempt = 1; ; attempt += 1) {
    const delay = backoffMs(backoff, attempt);
    try {
      await setUp();
      if (attempt > 1) retry.logger.info({ attempt }, 'database reachable: ready');
      return;
    } catch (error) {
      if (retry.stopped?.() || Date.now() + delay > deadline) throw error;
      if (attempt === 1) {
        const reason = retry.redact(error instanceof Error ? error.message : String(error));
        retry.logger.warn(
          { reason, database: retry.redact(retry.connectionString) },
          'database not reachable; retrying with backoff (readyz 503 until it is)',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
