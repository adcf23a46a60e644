import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  BILLING_EMAIL,
  BROWSER_TEST_TIMEOUT_MS,
  createThread,
  describeInBrowser,
  focusedId,
  launchBrowser,
  OUTPUT_DIR,
  openThread,
  startStack,
  waitUntilIdle,
  type Browser,
  type Stack,
  type Thread,
} from './support/review-inbox-browser.js';
import { tabWithToken } from './support/review-inbox-tab.js';
import { until } from './support/database.js';

/**
 * Two reviewers on one thread: when the draft one of them is reading changes because of someone
 * else, their page says who changed it and when, offers the text they had read, and asks once more
 * before approving the new text. Their own save says nothing.
 */
describeInBrowser('review inbox in Chromium: a draft changed under the reviewer', () => {
  const alice = { name: 'alice', token: 'tok-alice-0123456789' };
  const bob = { name: 'bob', token: 'tok-bob-0123456789' };
  // The text the reviewers read first: markup in a draft must stay text on the page.
  const earlierDraft =
    'Hi Dana, <img src=x onerror="document.title=\'pwned\'"> your refund is <b>on its way</b>.';
  let stack: Stack;
  let browser: Browser;
  // Closed after each test, failed or not: each holds a stream, and Chromium opens 6 per host.
  let pages: Page[] = [];
  // Script errors and console errors (a CSP violation is one) in any of them.
  let trouble: string[] = [];

  beforeAll(async () => {
    stack = await startStack([alice, bob]);
    browser = await launchBrowser();
  }, BROWSER_TEST_TIMEOUT_MS);

  afterEach(async () => {
    await Promise.all(pages.map((page) => page.close()));
    pages = [];
    const seen = trouble;
    trouble = [];
    expect(seen).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  }, BROWSER_TEST_TIMEOUT_MS);

  /** A thread whose draft is `earlierDraft` (saved by alice through the API), open in alice's and bob's tabs. */
  async function openByBoth() {
    const created = await createThread(stack.api, {
      inbound: BILLING_EMAIL,
      from: 'dana@example.com',
    });
    const { body: thread } = await stack.api('POST', `/threads/${created.thread_id}/edit`, {
      draft: earlierDraft,
    });
    const [a, b] = await Promise.all(
      [alice, bob].map(async ({ token }) => {
        const page = await tabWithToken(browser, stack.url, token, `#/threads/${thread.thread_id}`);
        pages.push(page);
        page.on('pageerror', (error) => trouble.push(error.message));
        page.on('console', (message) => {
          if (message.type() === 'error') trouble.push(message.text());
        });
        await waitUntilIdle(page, thread.thread_id);
        return page;
      }),
    );
    return { thread, a: a!, b: b! };
  }

  /** The reviewer replaces the draft in their page and saves it as `revision`. */
  async function saveInPage(page: Page, text: string, revision: number) {
    await page.locator('#draft').fill(text);
    await page.locator('#save-draft').click();
    await page.locator('#notice', { hasText: `Draft saved as revision ${revision}` }).waitFor();
  }

  const threadNow = async (id: string) => (await stack.api('GET', `/threads/${id}`)).body;

  test(
    'when another reviewer saves an edit, then within 2 s the page says who changed the draft and when, reads it out, and shows the earlier text as text, by keyboard',
    async () => {
      const { thread, a, b } = await openByBoth();

      await saveInPage(a, 'Alice rewrote this.', thread.revision + 1);

      const notice = b.locator('#draft-change');
      await notice.waitFor({ timeout: 2_000 });
      expect(await notice.textContent()).toContain(
        `alice edited it (revision ${thread.revision} → ${thread.revision + 1})`,
      );
      expect(await notice.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(await b.locator('#draft').inputValue()).toBe('Alice rewrote this.');
      await until(
        async () =>
          ((await b.locator('#announcer[aria-live]').textContent()) ?? '').includes(
            'alice edited it',
          ),
        'the change read out by the live region',
      );

      // From the thread's title, the keyboard reaches the notice's controls.
      await b.locator('#thread-title').focus();
      for (let presses = 0; presses < 10; presses += 1) {
        if ((await focusedId(b)) === 'draft-change-earlier') break;
        await b.keyboard.press('Tab');
      }
      expect(await focusedId(b)).toBe('draft-change-earlier');
      await b.keyboard.press('Enter');
      const earlier = b.locator('#draft-change-earlier-text');
      await earlier.waitFor();
      expect(await earlier.textContent()).toBe(earlierDraft);
      expect(await earlier.locator('img, b').count()).toBe(0);
      expect(await b.locator('#draft-change-earlier').getAttribute('aria-expanded')).toBe('true');
      await b.screenshot({ path: join(OUTPUT_DIR, 'review-inbox-draft-change.png') });

      // Alice's own save told her nothing.
      expect(await a.locator('#draft-change').count()).toBe(0);

      await b.locator('#draft-change-dismiss').focus();
      await b.keyboard.press('Enter');
      await notice.waitFor({ state: 'detached' });
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the draft changed under the reviewer, then Approve asks to confirm the new text in a dialog: cancelled, nothing is sent; confirmed, the new text is',
    async () => {
      const { thread, a, b } = await openByBoth();
      await saveInPage(a, 'Alice rewrote this.', thread.revision + 1);
      await b.locator('#draft-change').waitFor({ timeout: 2_000 });

      await b.locator('#approve').click();
      const dialog = b.locator('dialog#draft-change-dialog[open]');
      await dialog.waitFor();
      const question = await dialog.textContent();
      expect(question).toMatch(/The draft changed \d+ s ago — approve the new text\?/);
      expect(question).toContain('alice edited it');
      expect(await b.locator('#confirm-approve').count()).toBe(0);
      await b.screenshot({ path: join(OUTPUT_DIR, 'review-inbox-draft-change-approve.png') });

      await b.locator('#draft-change-cancel').click();
      await dialog.waitFor({ state: 'detached' });
      expect(await focusedId(b)).toBe('approve');
      const cancelled: Thread = await threadNow(thread.thread_id);
      expect([cancelled.status, cancelled.delivery, cancelled.revision]).toEqual([
        'awaiting_review',
        null,
        thread.revision + 1,
      ]);
      expect(await b.locator('#confirm-approve').count()).toBe(0);
      // Escape is a Cancel too.
      await b.locator('#approve').click();
      await dialog.waitFor();
      await b.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect((await threadNow(thread.thread_id)).status).toBe('awaiting_review');
      expect(await b.locator('#confirm-approve').count()).toBe(0);

      await b.locator('#approve').click();
      await dialog.waitFor();
      await b.locator('#draft-change-approve').click();
      await b.locator('#confirm-approve').click();
      await openThread(b, thread.thread_id).and(b.locator('[data-status="sent"]')).waitFor();
      const sent: Thread = await threadNow(thread.thread_id);
      expect([sent.status, sent.draft, sent.delivery?.to]).toEqual([
        'sent',
        'Alice rewrote this.',
        'dana@example.com',
      ]);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the reviewer saves their own edit, then their page shows no notice and approves as usual, and the other page names them',
    async () => {
      const { thread, a, b } = await openByBoth();

      await saveInPage(b, 'Bob wrote this himself.', thread.revision + 1);

      await a.locator('#draft-change', { hasText: 'bob edited it' }).waitFor({ timeout: 2_000 });
      // The same change reached bob's stream by now; give his page a moment to act on it.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await b.locator('#draft-change').count()).toBe(0);
      await b.locator('#approve').click();
      await b.locator('#confirm-approve').waitFor();
      expect(await b.locator('dialog#draft-change-dialog[open]').count()).toBe(0);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when another reviewer asks for a redraft, then the page says the model redrafted it at their request',
    async () => {
      const { thread, b } = await openByBoth();

      // Through the API, as alice: neither page asked for it.
      const { status } = await stack.api('POST', `/threads/${thread.thread_id}/edit`, {
        instructions: 'Shorter, please.',
      });
      expect(status).toBe(200);

      await b
        .locator('#draft-change', { hasText: 'the model redrafted it at alice’s request' })
        .waitFor({ timeout: 2_000 });
      expect(await b.locator('#draft').inputValue()).not.toBe(earlierDraft);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
