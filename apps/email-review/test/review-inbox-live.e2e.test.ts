import type { Page } from 'playwright-core';
import {
  BILLING_EMAIL,
  BROWSER_TEST_TIMEOUT_MS,
  createThread,
  deliveryShown,
  describeInBrowser,
  focusedId,
  launchBrowser,
  openThread,
  startStack,
  threadItem,
  waitUntilIdle,
  type Browser,
  type Stack,
  type Thread,
} from './support/review-inbox-browser.js';
import { until } from './support/database.js';
import { tabWithToken } from './support/review-inbox-tab.js';

/**
 * The inbox follows GET /events (with its own token): what other clients do shows up without a
 * reload, and a draft the reviewer is typing is never replaced under the cursor.
 */
describeInBrowser('review inbox in Chromium: live changes', () => {
  const token = 'review-inbox-live-token';
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack(token);
    browser = await launchBrowser();
  }, BROWSER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  }, BROWSER_TEST_TIMEOUT_MS);

  /** A tab that already holds the token (as after the reviewer entered it), with a marker a reload would lose. */
  async function tab(hash = ''): Promise<Page> {
    const page = await tabWithToken(browser, stack.url, token, hash);
    await page.evaluate('window.notReloaded = true');
    return page;
  }

  const notReloaded = (page: Page) => page.evaluate('window.notReloaded === true');

  /** A new thread, open in a tab of its own with `typed` added at the end of its draft. */
  async function editingTab(typed: string) {
    const thread: Thread = await createThread(stack.api, { inbound: BILLING_EMAIL });
    const page = await tab(`#/threads/${thread.thread_id}`);
    await waitUntilIdle(page, thread.thread_id);
    const draft = page.locator('#draft');
    await draft.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(typed);
    return { thread, page, draft };
  }

  /** Another reviewer saves `draft` over the revision `thread` was read at, through the API. */
  async function editElsewhere(thread: Thread, draft: string) {
    const saved = await fetch(`${stack.url}/threads/${thread.thread_id}/edit`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'if-match': `"${thread.revision}"`,
      },
      body: JSON.stringify({ draft }),
    });
    expect(saved.status).toBe(200);
  }

  test(
    'when a thread is created through the API and approved from a second page, then the first page shows both without a reload',
    async () => {
      const first = await tab();
      await first.locator('#list-summary').filter({ hasNotText: 'Loading' }).waitFor();

      const thread = await createThread(stack.api, {
        inbound: BILLING_EMAIL,
        from: 'dana@example.com',
      });
      await threadItem(first, thread.thread_id).waitFor();

      await threadItem(first, thread.thread_id).click();
      await waitUntilIdle(first, thread.thread_id);
      const second = await tab(`#/threads/${thread.thread_id}`);
      await waitUntilIdle(second, thread.thread_id);
      await second.locator('#approve').click();
      await second.locator('#confirm-approve').click();
      await openThread(second, thread.thread_id)
        .and(second.locator('[data-status="sent"]'))
        .waitFor();

      await openThread(first, thread.thread_id)
        .and(first.locator('[data-status="sent"]'))
        .waitFor();
      // No delivery worker runs in this stack: the reply stays queued, as the second page shows it.
      await deliveryShown(first, 'queued');
      expect(await notReloaded(first)).toBe(true);
      await Promise.all([first.close(), second.close()]);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the draft being typed is changed elsewhere, then the page says a newer revision exists and keeps the text and the cursor',
    async () => {
      const { thread, page, draft } = await editingTab(' Typed here.');

      await editElsewhere(thread, 'Another reviewer wrote this.');

      await page
        .locator('#newer-revision', { hasText: `revision ${thread.revision + 1}` })
        .waitFor();
      expect(await draft.inputValue()).toBe(`${thread.draft} Typed here.`);
      expect(await focusedId(page)).toBe('draft');
      // The cursor is where the reviewer left it: typing goes on at the end.
      await page.keyboard.type('!');
      expect(await draft.inputValue()).toBe(`${thread.draft} Typed here.!`);

      await page.locator('#show-newer-revision').click();
      await page.locator('#draft-text, #draft').first().waitFor();
      // Polled from the test (page.waitForFunction with a string evaluates it in the page, which
      // the inbox's CSP forbids once the first check does not already hold).
      await until(
        async () => (await draft.inputValue()) === 'Another reviewer wrote this.',
        'the newer revision in the draft',
        15_000,
      );
      expect(await notReloaded(page)).toBe(true);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when more of a list was loaded and a change comes, then the list keeps what was loaded',
    async () => {
      // More than one page (50) of threads awaiting review.
      for (let n = 0; n < 55; n += 1) await createThread(stack.api, { inbound: BILLING_EMAIL });
      const page = await tab();
      const rows = page.locator('#thread-list li');
      await page.locator('#load-more').click();
      await until(async () => (await rows.count()) > 50, 'the second page');
      const loaded = await rows.count();

      const another = await createThread(stack.api, { inbound: BILLING_EMAIL });
      await page.locator(`a[href="#/threads/${another.thread_id}"]`).waitFor();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await rows.count()).toBeGreaterThanOrEqual(loaded);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the reviewer leaves a thread with an unsaved edit, then the page asks first; staying keeps the text, leaving goes',
    async () => {
      const { thread, page, draft } = await editingTab(' Not saved yet.');
      const asked: string[] = [];

      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.dismiss();
      });
      // As a link to the inbox does (the "← Inbox" button shows on narrow screens only).
      await page.evaluate("window.location.hash = '#/'");
      await until(() => asked.length === 1, 'the question');
      expect(asked[0]).toMatch(/unsaved edit/);
      expect(await draft.inputValue()).toBe(`${thread.draft} Not saved yet.`);
      expect(new URL(page.url()).hash).toBe(`#/threads/${thread.thread_id}`);

      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.accept();
      });
      await page.evaluate("window.location.hash = '#/'");
      await until(() => asked.length === 2, 'the question again');
      await draft.waitFor({ state: 'detached' });
      expect(await notReloaded(page)).toBe(true);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the event stream loses changes it cannot replay (reset), then the open thread is reloaded too, not only the lists',
    async () => {
      const thread: Thread = await createThread(stack.api, { inbound: BILLING_EMAIL });
      const page = await tab(`#/threads/${thread.thread_id}`);
      await waitUntilIdle(page, thread.thread_id);
      const draft = page.locator('#draft');
      expect(await draft.inputValue()).toBe(thread.draft);

      // As after the service's listener reconnected: the page's stream ends, and the edit below
      // commits before the page is back (it waits 2 s), so it can only learn of it by a reset.
      stack.changes.gap();
      await editElsewhere(thread, 'Written while the page was away.');

      await until(
        async () => (await draft.inputValue()) === 'Written while the page was away.',
        'the open thread reloaded after the reset',
        15_000,
      );
      expect(await notReloaded(page)).toBe(true);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when a draft changed elsewhere is saved over from the page, then the save is refused with the reason and the typed text stays in the editor, to be saved again',
    async () => {
      const { thread, page, draft } = await editingTab(' Mine.');
      const typed = `${thread.draft} Mine.`;

      await editElsewhere(thread, 'Another reviewer wrote this.');
      await page.locator('#newer-revision').waitFor();

      await page.locator('#save-draft').click();
      await page.locator('#notice', { hasText: 'Could not save' }).waitFor();
      expect(await page.locator('#notice').textContent()).toContain(
        'Your text is still in the editor',
      );
      expect(await draft.inputValue()).toBe(typed);

      await page.locator('#save-draft').click();
      await page
        .locator('#notice', { hasText: `Draft saved as revision ${thread.revision + 2}` })
        .waitFor();
      const saved = (await (
        await fetch(`${stack.url}/threads/${thread.thread_id}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as Thread;
      expect([saved.revision, saved.draft]).toEqual([thread.revision + 2, typed]);
      expect(await notReloaded(page)).toBe(true);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
