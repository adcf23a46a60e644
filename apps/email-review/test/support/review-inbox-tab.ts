import type { Page } from 'playwright-core';
import type { Browser } from './review-inbox-browser.js';

/** The key under which the inbox keeps the reviewer's token for the tab (web/assets/token.js). */
const TOKEN_KEY = 'email-review.api-token';

/** A tab that already holds `token` (as after the reviewer entered it), opened at `url` + `hash`. */
export async function tabWithToken(
  browser: Browser,
  url: string,
  token: string,
  hash = '',
): Promise<Page> {
  const page = await browser.context.newPage();
  page.setDefaultTimeout(15_000);
  // Scripts run in the page (strings: these tests compile without the DOM's types).
  await page.addInitScript({
    content: `sessionStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)})`,
  });
  await page.goto(`${url}/${hash}`);
  return page;
}
