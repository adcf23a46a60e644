import { setTimeout as delay } from 'node:timers/promises';

/**
 * Waits until the service's help center holds `articles` articles (`GET /kb/articles`). A service
 * answers /readyz before its KB_DIR is loaded, and a search meanwhile ranks a partial help center:
 * the same case would give other passages from run to run, and no replay could match. A service
 * without the route (404) has no help center to wait for.
 */
export async function waitForHelpCenter(
  url: string,
  articles: number,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let held = 0;
  while (Date.now() < deadline) {
    const res = await fetch(`${url}/kb/articles?limit=500`);
    if (res.status === 404) return;
    if (res.ok) {
      held = ((await res.json()) as { articles?: unknown[] }).articles?.length ?? 0;
      if (held >= articles) return;
    }
    await delay(100);
  }
  throw new Error(
    `${url}: the help center held ${held} of ${articles} articles after ${timeoutMs} ms`,
  );
}
