import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BILLING_EMAIL,
  BROWSER_TEST_TIMEOUT_MS,
  createThread,
  deliveryShown,
  describeInBrowser,
  focusedId,
  launchBrowser,
  openPage,
  openPageAt,
  openThread,
  OUTPUT_DIR,
  startStack,
  threadItem,
  waitUntilIdle,
  type Browser,
  type Stack,
  type Thread,
} from './support/review-inbox-browser.js';
import { SmtpSink, type ReceivedMail } from './support/smtp-sink.js';

const PARCEL_EMAIL =
  'Hello,\n\n  My parcel #5521 arrived damaged.   Could you send a replacement?\n\nRegards,\nSam';
const LONG_LINE_EMAIL =
  'This is the third time I am writing about my damaged order #4471 and nobody has answered. I want to speak to a manager today.\n\nJames Porter';

const humanize = (value: string) => {
  const words = value.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

describeInBrowser(
  'review inbox in Chromium: titles, recipients, confirmations, live delivery',
  () => {
    let sink: SmtpSink;
    let stack: Stack;
    let browser: Browser;

    beforeAll(async () => {
      await mkdir(OUTPUT_DIR, { recursive: true });
      sink = await SmtpSink.start();
      // A generous SMTP timeout: one test holds the sink's answer while it looks at the page.
      stack = await startStack(undefined, { smtpUrl: sink.url, timeoutMs: 30_000 });
      browser = await launchBrowser();
    }, BROWSER_TEST_TIMEOUT_MS);

    afterAll(async () => {
      await browser?.close();
      await stack?.close();
      await sink?.stop();
    }, BROWSER_TEST_TIMEOUT_MS);

    const create = (body: Record<string, string>) => createThread(stack.api, body);

    const openAt = (thread: Thread) => openPageAt(browser, stack.url, thread);

    const mailTo = (address: string): ReceivedMail[] =>
      sink.received.filter((mail) => mail.envelope.to.includes(address));

    test(
      'when a thread has no subject, then its title is the customer’s first line (not the model’s summary) with its category beside it, in the list and in the open thread',
      async () => {
        const parcel = await create({ inbound: PARCEL_EMAIL });
        const long = await create({ inbound: LONG_LINE_EMAIL });
        const { page, trouble } = await openPage(browser, stack.url);

        await threadItem(page, long.thread_id).waitFor();
        const listed = threadItem(page, parcel.thread_id);
        expect(await listed.locator('.item-title').textContent()).toBe(
          'My parcel #5521 arrived damaged. Could you send a replacement?',
        );
        expect(await listed.locator('[data-field="category"]').textContent()).toBe(
          humanize(parcel.classification!.category),
        );
        const longTitle = (await threadItem(page, long.thread_id)
          .locator('.item-title')
          .textContent())!;
        expect(longTitle).toMatch(
          /^This is the third time I am writing about my damaged order.*…$/,
        );
        expect(longTitle.length).toBeLessThanOrEqual(90);

        await listed.click();
        await waitUntilIdle(page, parcel.thread_id);
        const title = await page.locator('#thread-title').textContent();
        expect(title).toBe('My parcel #5521 arrived damaged. Could you send a replacement?');
        expect(title).not.toBe(parcel.classification!.summary);
        expect(await page.locator('[data-field="title-category"]').textContent()).toBe(
          humanize(parcel.classification!.category),
        );

        expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [] });
        await page.close();
      },
      BROWSER_TEST_TIMEOUT_MS,
    );

    test(
      'when a thread has no sender, then the page says "No recipient" and the address the reviewer sets on approve is where the SMTP server gets the reply',
      async () => {
        const thread = await create({ inbound: PARCEL_EMAIL });
        expect(thread.email.from).toBeNull();
        const { page, trouble } = await openAt(thread);
        expect(await page.locator('[data-field="recipient"]').textContent()).toBe('No recipient');

        await page.locator('#approve').click();
        // With nobody to send to, the step starts where the reviewer has to type.
        expect(await focusedId(page)).toBe('recipient');
        expect(await page.getByLabel('Send to').inputValue()).toBe('');
        expect(await page.locator('#recipient-hint').textContent()).toMatch(/^No recipient/);
        await page.keyboard.type('Sam Reed <sam@example.org>');
        expect(await page.locator('#recipient-hint').textContent()).toBe('Entered by you.');
        await page.keyboard.press('Enter');

        await openThread(page, thread.thread_id)
          .and(page.locator('[data-status="sent"]'))
          .waitFor();
        await deliveryShown(page, 'delivered');
        expect(await page.locator('#delivery-facts').textContent()).toContain(
          'To Sam Reed <sam@example.org>',
        );
        expect(mailTo('sam@example.org')).toHaveLength(1);
        expect(
          (await stack.api('GET', `/threads/${thread.thread_id}`)).body.delivery,
        ).toMatchObject({
          status: 'delivered',
          to: 'Sam Reed <sam@example.org>',
        });

        expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [] });
        await page.close();
      },
      BROWSER_TEST_TIMEOUT_MS,
    );

    test(
      'when a reviewer approves with the keyboard, then the sender’s address is shown, Escape cancels without sending, and Confirm sends to that address',
      async () => {
        const thread = await create({
          inbound: BILLING_EMAIL,
          from: 'Dana Whitfield <dana@example.com>',
          subject: 'Double charge',
        });
        const { page, trouble } = await openAt(thread);
        expect(await page.locator('[data-field="recipient"]').textContent()).toBe(
          'Reply to Dana Whitfield <dana@example.com>',
        );

        await page.locator('#approve').focus();
        await page.keyboard.press('Enter');
        const step = page.getByRole('form', { name: 'Approve revision 1 and send it?' });
        await step.waitFor();
        expect(await focusedId(page)).toBe('confirm-approve');
        expect(await page.getByLabel('Send to').inputValue()).toBe(
          'Dana Whitfield <dana@example.com>',
        );
        // While the decision is confirmed, the draft it decides on cannot change under it.
        expect(await page.locator('#draft').isDisabled()).toBe(true);
        await page.screenshot({ path: join(OUTPUT_DIR, 'review-inbox-confirm-approve.png') });
        // On a phone the step stays within the screen's width.
        await page.setViewportSize({ width: 390, height: 844 });
        expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(
          390,
        );
        await page.screenshot({ path: join(OUTPUT_DIR, 'review-inbox-confirm-approve-phone.png') });
        await page.setViewportSize({ width: 1366, height: 860 });

        await page.keyboard.press('Escape');
        expect(await step.count()).toBe(0);
        expect(await focusedId(page)).toBe('approve');
        expect((await stack.api('GET', `/threads/${thread.thread_id}`)).body.status).toBe(
          'awaiting_review',
        );

        await page.keyboard.press('Enter');
        await step.waitFor();
        await page.keyboard.press('Enter');
        await openThread(page, thread.thread_id)
          .and(page.locator('[data-status="sent"]'))
          .waitFor();
        await deliveryShown(page, 'delivered');
        expect(mailTo('dana@example.com')).toHaveLength(1);
        expect(mailTo('dana@example.com')[0]!.parsed.subject).toBe('Re: Double charge');

        expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [] });
        await page.close();
      },
      BROWSER_TEST_TIMEOUT_MS,
    );

    test(
      'when a reviewer rejects, then a confirmation asks first, Cancel goes back, and the reason given is kept and shown in the history',
      async () => {
        const thread = await create({ inbound: BILLING_EMAIL });
        const { page, trouble } = await openAt(thread);

        await page.locator('#reject').click();
        expect(await focusedId(page)).toBe('confirm-reject');
        await page.locator('#cancel-decision').click();
        expect(await page.locator('#confirm-reject').count()).toBe(0);
        expect(await focusedId(page)).toBe('reject');
        expect((await stack.api('GET', `/threads/${thread.thread_id}`)).body.status).toBe(
          'awaiting_review',
        );

        const reason = 'Duplicate of the thread about invoice #4411, answered there.';
        await page.locator('#reject').click();
        await page.getByLabel('Reason (optional)').fill(reason);
        await page.getByLabel('Reason (optional)').press('Enter');
        await openThread(page, thread.thread_id)
          .and(page.locator('[data-status="rejected"]'))
          .waitFor();

        const shown = page.locator('#history li[data-event-type="rejected"]');
        expect(await shown.locator('.timeline-details').textContent()).toBe(`Reason: ${reason}`);
        const history = (await stack.api('GET', `/threads/${thread.thread_id}/history`))
          .body as unknown as { events: { type: string; reason?: string | null }[] };
        expect(history.events.find((event) => event.type === 'rejected')?.reason).toBe(reason);

        expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [] });
        await page.close();
      },
      BROWSER_TEST_TIMEOUT_MS,
    );

    test(
      'when the SMTP server takes its time to accept an approved reply, then the open thread shows it queued and then delivered without a reload',
      async () => {
        const thread = await create({ inbound: BILLING_EMAIL, from: 'lee@example.com' });
        const { page, trouble } = await openAt(thread);
        await page.evaluate('window.sameDocument = true');

        const release = sink.holdAcceptance();
        try {
          await page.locator('#approve').click();
          await page.locator('#confirm-approve').click();
          await deliveryShown(page, 'queued');
          expect(mailTo('lee@example.com')).toHaveLength(0);
        } finally {
          release();
        }

        await deliveryShown(page, 'delivered');
        expect(await page.evaluate('window.sameDocument')).toBe(true);
        expect(await page.locator('#delivery-status').textContent()).toBe(
          'Delivered: the mail server accepted it.',
        );
        expect(await page.locator('#announcer').textContent()).toBe(
          'Delivery: Delivered: the mail server accepted it.',
        );
        await page.locator('#history li[data-event-type="delivered"]').waitFor();
        expect(mailTo('lee@example.com')).toHaveLength(1);

        expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [] });
        await page.close();
      },
      BROWSER_TEST_TIMEOUT_MS,
    );
  },
);
