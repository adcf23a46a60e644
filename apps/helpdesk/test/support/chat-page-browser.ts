import { requireInstalled } from '@repo/jest-preset/test-servers.mjs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The chat page's browser tests: Debian's Chromium, launched as email-review's inbox tests do. */

const CHROMIUM = '/usr/bin/chromium';
export const OUTPUT_DIR = fileURLToPath(new URL('../../test-output/', import.meta.url));
// A missing browser fails the tests (one sentence naming the install line, from launchBrowser):
// the README's preparation line installs it, so a skip would only hide an unprepared machine.
export const describeInBrowser = describe;

export const BROWSER_TEST_TIMEOUT_MS = 90_000;

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  requireInstalled('Chromium', CHROMIUM);
  const userDataDir = await mkdtemp(join(tmpdir(), 'helpdesk-chat-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport: { width: 1024, height: 760 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Everything the page reported that a customer would call a malfunction. */
export interface PageTrouble {
  consoleErrors: string[];
  pageErrors: string[];
  dialogs: string[];
}

export async function openPage(
  browser: Browser,
  url: string,
): Promise<{ page: Page; trouble: PageTrouble }> {
  const page = await browser.context.newPage();
  page.setDefaultTimeout(20_000);
  const trouble: PageTrouble = { consoleErrors: [], pageErrors: [], dialogs: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') trouble.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => trouble.pageErrors.push(error.message));
  page.on('dialog', (dialog) => {
    trouble.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(url);
  return { page, trouble };
}

/**
 * Records, in the page, every text the latest answer shows and every status line, as they change:
 * what a customer sees the answer grow through.
 */
export async function watchAnswers(page: Page): Promise<void> {
  // A string: the test's TypeScript has no DOM types, the page's script runs as written.
  await page.evaluate(`(() => {
    const seen = { texts: [], statuses: [] };
    window.seen = seen;
    new MutationObserver(() => {
      const answers = document.querySelectorAll('.message.assistant');
      const last = answers[answers.length - 1];
      if (!last) return;
      const text = last.querySelector('.text')?.textContent ?? '';
      if (text && seen.texts.at(-1) !== text) seen.texts.push(text);
      const status = last.querySelector('.status-line');
      const line = status && !status.hidden ? (status.textContent ?? '') : '';
      if (line && seen.statuses.at(-1) !== line) seen.statuses.push(line);
    }).observe(document.getElementById('messages'), {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  })()`);
}

export const seenSoFar = (page: Page) =>
  page.evaluate<{ texts: string[]; statuses: string[] }>('window.seen');

/** Types a message and sends it with Enter, as a customer does. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  await page.locator('#message').fill(text);
  await page.locator('#message').press('Enter');
}

/** The page once it shows `count` finished answers. */
export const answersDone = (page: Page, count: number) =>
  page
    .locator('.message.assistant[data-state="done"]')
    .nth(count - 1)
    .waitFor();

export const focusedId = (page: Page): Promise<string> =>
  page.evaluate<string>('document.activeElement?.id ?? ""');
