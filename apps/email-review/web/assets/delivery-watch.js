const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 8000;

let timer;
let watchedId = null;
let delayMs = FIRST_DELAY_MS;

/**
 * Follows the open thread's delivery while it is `queued`: `poll(id)` runs after 250 ms, then ever
 * less often (twice the wait each time, at most 8 s), and no more once the status is final or
 * another thread is shown. Call it with every thread the page shows (null for none); `poll` loads
 * the thread and shows it, which calls this again.
 */
export function watchDelivery(thread, poll) {
  clearTimeout(timer);
  timer = undefined;
  const id = thread?.thread_id ?? null;
  if (id !== watchedId || thread?.delivery?.status !== 'queued') delayMs = FIRST_DELAY_MS;
  watchedId = id;
  if (thread?.delivery?.status !== 'queued') return;
  timer = setTimeout(() => {
    timer = undefined;
    void poll(id);
  }, delayMs);
  delayMs = Math.min(delayMs * 2, MAX_DELAY_MS);
}
