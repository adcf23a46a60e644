import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { REVIEW_INBOX_CSP } from '../src/web/review-inbox.js';
import {
  BILLING_EMAIL,
  BROWSER_TEST_TIMEOUT_MS,
  decide,
  describeInBrowser,
  launchBrowser,
  openPage,
  openThread,
  OUTPUT_DIR,
  startStack,
  threadItem,
  waitUntilIdle,
  type Browser,
  type Stack,
} from './support/review-inbox-browser.js';
import { SmtpSink } from './support/smtp-sink.js';

const XSS_EMAIL =
  'Hello <script>alert(1)</script> team,\n<img src=x onerror=alert(2)>\nPlease reset my password, I cannot log in.';

describeInBrowser('review inbox in Chromium', () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    await mkdir(OUTPUT_DIR, { recursive: true });
    stack = await startStack();
    browser = await launchBrowser();
  }, BROWSER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  }, BROWSER_TEST_TIMEOUT_MS);

  test(
    'when a reviewer edits, redrafts, approves and rejects in the page, then the API holds the states the page showed',
    async () => {
      const billing = (await stack.api('POST', '/threads', { inbound: BILLING_EMAIL })).body;
      const hostile = (await stack.api('POST', '/threads', { inbound: XSS_EMAIL })).body;
      expect([billing.status, hostile.status]).toEqual(['awaiting_review', 'awaiting_review']);

      const { page, trouble } = await openPage(browser, stack.url);

      // The inbox: both threads, newest first, with the count.
      await threadItem(page, billing.thread_id).waitFor();
      const listed = await page
        .locator('a.thread-item')
        .evaluateAll((links) => links.map((link) => link.getAttribute('data-thread-id')));
      expect(listed).toEqual([hostile.thread_id, billing.thread_id]);
      expect(await page.locator('[data-count="awaiting_review"]').textContent()).toBe('2');
      await page.screenshot({ path: join(OUTPUT_DIR, 'inbox.png') });

      // The hostile email renders as text: no element, no script run, no dialog.
      await threadItem(page, hostile.thread_id).click();
      await waitUntilIdle(page, hostile.thread_id);
      const inboundText = await page.locator('#inbound-text').textContent();
      expect(inboundText).toContain('<script>alert(1)</script>');
      expect(inboundText).toContain('<img src=x onerror=alert(2)>');
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('#detail script').count()).toBe(0);
      expect(
        await threadItem(page, hostile.thread_id).locator('.item-snippet').textContent(),
      ).toContain('<script>alert(1)</script>');

      // Edit by text, saved with Ctrl+Enter.
      const ownText =
        'Hello,\n\nI have sent you a password reset link. It is valid for one hour.\n\nBest regards,\nSupport';
      await page.locator('#draft').fill(ownText);
      await page.locator('#draft').press('Control+Enter');
      await page.locator('[data-field="revision"]', { hasText: 'Revision 2' }).waitFor();
      await waitUntilIdle(page, hostile.thread_id);
      expect(await page.locator('#notice').textContent()).toBe('Draft saved as revision 2.');
      const edited = (await stack.api('GET', `/threads/${hostile.thread_id}`)).body;
      expect(edited).toMatchObject({ status: 'awaiting_review', revision: 2, draft: ownText });

      // Open the other thread with the keyboard, then ask for a redraft; the model is slowed
      // down for that one call so the busy state is there to be seen.
      await threadItem(page, billing.thread_id).focus();
      await page.keyboard.press('Enter');
      await waitUntilIdle(page, billing.thread_id);
      stack.emulator.faults.add({ provider: 'openai', count: 1, kind: 'delay', delayMs: 2000 });
      await page
        .locator('#instructions')
        .fill('Shorter, and say the refund takes 5 business days.');
      await page.locator('#redraft').click();
      await page.locator('#busy:not([hidden])').waitFor();
      expect(await openThread(page, billing.thread_id).getAttribute('aria-busy')).toBe('true');
      expect(await page.locator('#draft').isDisabled()).toBe(true);
      await waitUntilIdle(page, billing.thread_id);
      expect(await page.locator('#busy').isHidden()).toBe(true);
      const redrafted = (await stack.api('GET', `/threads/${billing.thread_id}`)).body;
      expect(redrafted).toMatchObject({ status: 'awaiting_review', revision: 2 });
      expect(await page.locator('[data-field="revision"]').textContent()).toBe('Revision 2');
      expect(await page.locator('#draft').inputValue()).toBe(redrafted.draft);
      expect(await page.locator('#instructions').inputValue()).toBe('');
      await page.screenshot({ path: join(OUTPUT_DIR, 'thread.png') });

      // Approve the redrafted one, reject the edited one.
      await decide(page, 'approve');
      await openThread(page, billing.thread_id).and(page.locator('[data-status="sent"]')).waitFor();
      const shownSent = await page.locator('[data-field="status"]').textContent();
      await threadItem(page, hostile.thread_id).click();
      await waitUntilIdle(page, hostile.thread_id);
      await decide(page, 'reject');
      await openThread(page, hostile.thread_id)
        .and(page.locator('[data-status="rejected"]'))
        .waitFor();
      const shownRejected = await page.locator('[data-field="status"]').textContent();

      const sent = (await stack.api('GET', `/threads/${billing.thread_id}`)).body;
      const rejected = (await stack.api('GET', `/threads/${hostile.thread_id}`)).body;
      expect([shownSent, sent.status]).toEqual(['Sent', 'sent']);
      expect(sent.sent_at).not.toBeNull();
      expect(sent.draft).toBe(redrafted.draft);
      expect([shownRejected, rejected.status]).toEqual(['Rejected', 'rejected']);

      // The tabs moved them: none left to review, one under Sent, one under Rejected.
      await page.locator('[data-count="awaiting_review"]', { hasText: /^0$/ }).waitFor();
      expect(await page.locator('[data-count="sent"]').textContent()).toBe('1');
      expect(await page.locator('[data-count="rejected"]').textContent()).toBe('1');
      await page.locator('#tab-sent').click();
      await threadItem(page, billing.thread_id).waitFor();
      await page.keyboard.press('ArrowRight');
      expect(await page.locator('#tab-rejected').getAttribute('aria-selected')).toBe('true');
      await threadItem(page, hostile.thread_id).waitFor();

      // A phone-width viewport shows one pane and needs no sideways scrolling.
      await page.setViewportSize({ width: 390, height: 844 });
      const pageWidth = await page.locator('html').evaluate((html) => html.scrollWidth);
      expect(pageWidth).toBeLessThanOrEqual(390);
      await page.screenshot({ path: join(OUTPUT_DIR, 'thread-phone.png') });

      expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [] });
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when a customer answers a sent reply, then the page marks the new thread as a follow-up and links to the earlier one',
    async () => {
      const first = (
        await stack.api('POST', '/threads', {
          inbound: BILLING_EMAIL,
          from: 'Dana <dana@customer.test>',
          message_id: '<first-e2e@customer.test>',
        })
      ).body;
      const sent = (
        await stack.api<{ delivery: { message_id: string } }>(
          'POST',
          `/threads/${first.thread_id}/approve`,
        )
      ).body;
      const replyId = sent.delivery.message_id;
      const raw = `From: Dana <dana@customer.test>\r\nSubject: Re: refund\r\nMessage-ID: <answer-e2e@customer.test>\r\nIn-Reply-To: ${replyId}\r\n\r\nThe refund has not arrived yet.\r\n`;
      const answered = await fetch(`${stack.url}/threads`, {
        method: 'POST',
        headers: { 'content-type': 'message/rfc822' },
        body: raw,
      });
      const followUp = (await answered.json()) as {
        thread_id: string;
        previous_thread_id?: string;
      };
      expect(followUp.previous_thread_id).toBe(first.thread_id);

      const { page, trouble } = await openPage(browser, stack.url);
      await threadItem(page, followUp.thread_id).locator('[data-field="follow-up"]').waitFor();
      await threadItem(page, followUp.thread_id).click();
      await waitUntilIdle(page, followUp.thread_id);
      await page.locator('#previous-thread-link').click();
      await openThread(page, first.thread_id).waitFor();
      expect(page.url()).toContain(`#/threads/${first.thread_id}`);
      expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [] });
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when someone else acted first, then the page says so in words and shows the real state',
    async () => {
      const thread = (await stack.api('POST', '/threads', { inbound: BILLING_EMAIL })).body;
      const { page, trouble } = await openPage(
        browser,
        `${stack.url}/#/threads/${thread.thread_id}`,
        { live: false },
      );
      await waitUntilIdle(page, thread.thread_id);

      expect((await stack.api('POST', `/threads/${thread.thread_id}/approve`, {})).status).toBe(
        200,
      );
      await decide(page, 'reject');

      const alert = page.locator('#notice[role="alert"]');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(
        /^Could not reject the thread: someone else acted on this thread first/,
      );
      await openThread(page, thread.thread_id).and(page.locator('[data-status="sent"]')).waitFor();
      expect(await page.locator('#reject').count()).toBe(0);
      expect((await stack.api('GET', `/threads/${thread.thread_id}`)).body.status).toBe('sent');

      // The browser itself logs the 409 response; nothing else may appear.
      expect(trouble.consoleErrors.filter((text) => !/status of 409/.test(text))).toEqual([]);
      expect(trouble.pageErrors).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when page A edits a thread and page B, still showing the old draft, approves it, then B is refused in words and shows A’s draft and the timeline',
    async () => {
      const thread = (await stack.api('POST', '/threads', { inbound: BILLING_EMAIL })).body;
      const url = `${stack.url}/#/threads/${thread.thread_id}`;
      const a = await openPage(browser, url);
      const b = await openPage(browser, url, { live: false });
      await waitUntilIdle(a.page, thread.thread_id);
      await waitUntilIdle(b.page, thread.thread_id);
      expect(await b.page.locator('[data-field="revision"]').textContent()).toBe('Revision 1');

      const edited = 'Dear Dana,\n\nWe refunded the duplicate charge on invoice #4411.\n\nSupport';
      await a.page.locator('#draft').fill(edited);
      await a.page.locator('#save-draft').click();
      await a.page.locator('#notice').filter({ hasText: 'revision 2' }).waitFor();

      await decide(b.page, 'approve');

      const alert = b.page.locator('#notice[role="alert"]');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(
        /^Could not approve and send: the draft was changed by someone else while you were reading revision 1 \(it is now at revision 2\)\. Nothing was done\./,
      );
      await waitUntilIdle(b.page, thread.thread_id);
      expect(await b.page.locator('[data-field="revision"]').textContent()).toBe('Revision 2');
      expect(await b.page.locator('#draft').inputValue()).toBe(edited);
      expect(
        await b.page
          .locator('#history li')
          .evaluateAll((items) => items.map((item) => item.getAttribute('data-event-type'))),
      ).toEqual(['created', 'classified', 'drafted', 'edited']);
      expect(await b.page.locator('#history li[data-event-type="edited"]').textContent()).toContain(
        'We refunded the duplicate charge',
      );
      expect((await stack.api('GET', `/threads/${thread.thread_id}`)).body).toMatchObject({
        status: 'awaiting_review',
        revision: 2,
        draft: edited,
      });

      // B is told what changed under it, and approving A's text asks once more.
      expect(await b.page.locator('#draft-change').textContent()).toContain(
        'edited it (revision 1 → 2)',
      );

      // Now B approves what it shows: revision 2, A's text.
      await b.page.locator('#approve').click();
      await b.page.locator('#draft-change-approve').click();
      await b.page.locator('#confirm-approve').click();
      await openThread(b.page, thread.thread_id)
        .and(b.page.locator('[data-status="sent"]'))
        .waitFor();
      await b.page.locator('#history li[data-event-type="approved"]').waitFor();
      expect((await stack.api('GET', `/threads/${thread.thread_id}`)).body).toMatchObject({
        status: 'sent',
        revision: 2,
        draft: edited,
      });
      await b.page.screenshot({
        path: join(OUTPUT_DIR, 'review-inbox-stale-approve.png'),
        fullPage: true,
      });

      // The browser itself logs the 412 response; nothing else may appear.
      for (const { trouble } of [a, b]) {
        expect(trouble.consoleErrors.filter((text) => !/status of 412/.test(text))).toEqual([]);
        expect(trouble.pageErrors).toEqual([]);
      }
      await a.page.close();
      await b.page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the page is opened with a malformed hash, then it ignores the hash and shows the list',
    async () => {
      const thread = (await stack.api('POST', '/threads', { inbound: BILLING_EMAIL })).body;

      const { page, trouble } = await openPage(browser, `${stack.url}/#/threads/%E0%A4%A`);

      await threadItem(page, thread.thread_id).waitFor();
      expect(await openThread(page, thread.thread_id).count()).toBe(0);
      expect(trouble.pageErrors).toEqual([]);
      expect(trouble.consoleErrors).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});

describeInBrowser('review inbox in Chromium, with API_TOKEN set', () => {
  const token = 'review-inbox-e2e-token';
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

  test(
    'when the page and its assets are fetched without a token, then they are served with a strict CSP while the API answers 401',
    async () => {
      for (const path of ['/', '/index.html', '/assets/app.js', '/assets/styles.css']) {
        const response = await fetch(`${stack.url}${path}`);
        expect([path, response.status]).toEqual([path, 200]);
        expect(response.headers.get('content-security-policy')).toBe(REVIEW_INBOX_CSP);
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      }
      expect(REVIEW_INBOX_CSP).toContain("script-src 'self'");
      expect((await fetch(`${stack.url}/threads`)).status).toBe(401);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the service needs a token, then the page asks once per tab session and then works',
    async () => {
      const thread = (await stack.api('POST', '/threads', { inbound: BILLING_EMAIL })).body;
      const { page, trouble } = await openPage(browser, stack.url);

      const dialog = page.locator('#token-dialog[open]');
      await dialog.waitFor();
      await page.locator('#token-input').fill('wrong-token');
      await page.locator('#token-input').press('Enter');
      await page.locator('#token-reason', { hasText: 'That token was not accepted' }).waitFor();
      await page.locator('#token-input').fill(token);
      await page.getByRole('button', { name: 'Continue' }).click();
      await threadItem(page, thread.thread_id).waitFor();
      expect(await dialog.count()).toBe(0);

      // A reload in the same tab keeps the token: no second prompt, and actions work.
      await page.reload();
      await threadItem(page, thread.thread_id).click();
      await waitUntilIdle(page, thread.thread_id);
      await decide(page, 'approve');
      await openThread(page, thread.thread_id).and(page.locator('[data-status="sent"]')).waitFor();
      expect(await dialog.count()).toBe(0);
      expect((await stack.api('GET', `/threads/${thread.thread_id}`)).body.status).toBe('sent');

      // Only the calls refused before a valid token was entered show up as console errors.
      expect(trouble.consoleErrors.filter((text) => !/status of 401/.test(text))).toEqual([]);
      expect(trouble.pageErrors).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});

describeInBrowser('review inbox in Chromium, delivering over SMTP', () => {
  let sink: SmtpSink;
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    stack = await startStack(undefined, { smtpUrl: sink.url });
    browser = await launchBrowser();
  }, BROWSER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await sink?.stop();
  }, BROWSER_TEST_TIMEOUT_MS);

  test(
    'when a delivery failed, then the page shows it and Redeliver after the fix gets it delivered',
    async () => {
      sink.rule = () => ({ code: 550, message: 'Mailbox unavailable' });
      const thread = (
        await stack.api('POST', '/threads', {
          inbound: BILLING_EMAIL,
          from: 'Dana <dana@example.com>',
          subject: 'Double charge',
        })
      ).body;
      await stack.api('POST', `/threads/${thread.thread_id}/approve`, {});
      const { page, trouble } = await openPage(
        browser,
        `${stack.url}/#/threads/${thread.thread_id}`,
      );
      await page.locator('[data-delivery-status="failed"]').waitFor();
      expect(await page.locator('#delivery-error').textContent()).toContain('550');
      expect(await page.locator('#thread-title').textContent()).toBe('Dana: Double charge');

      sink.rule = () => undefined;
      await page.locator('#redeliver').click();
      await waitUntilIdle(page, thread.thread_id);
      for (let i = 0; i < 50 && sink.received.length === 0; i += 1)
        await new Promise((resolve) => setTimeout(resolve, 100));
      await page.reload();
      await page.locator('[data-delivery-status="delivered"]').waitFor();
      expect(await page.locator('#redeliver').count()).toBe(0);
      expect(sink.received).toHaveLength(1);
      expect(trouble.pageErrors).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
