/** Every attempt of the SDK (1 + 2 retries) fails; Retry-After 0 keeps the backoff out of the test's time. */
export const ALWAYS_500 = {
  provider: 'openai',
  kind: 'status',
  status: 500,
  retryAfterSeconds: 0,
  count: 1000,
} as const;

/** Lets the next call through untouched, so the fault queued after it hits the call after that. */
export const PASS_ONE = { provider: 'openai', kind: 'delay', delayMs: 0, count: 1 } as const;
