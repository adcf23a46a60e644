import { createLogger } from '@repo/http-kit';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import type { Page } from 'playwright-core';
import { createLogTransport } from '../src/delivery/mail-transport.js';
import { createSmtpTransport } from '../src/delivery/smtp-transport.js';
import { dropSchema, freshSchema, postgresTestsEnabled } from './support/database.js';
import { startInstance, type Instance } from './support/harness.js';
import {
  apiClient,
  BILLING_EMAIL,
  BROWSER_TEST_TIMEOUT_MS,
  createThread,
  deliveryShown,
  describeInBrowser,
  focusedId,
  launchBrowser,
  openPageAt,
  openThread,
  type Api,
  type Browser,
  type Thread,
} from './support/review-inbox-browser.js';
import { SmtpSink } from './support/smtp-sink.js';

/**
 * The review inbox over the service's delivery outcomes that send nothing by SMTP: approved without
 * a recipient (`no_recipient`, then redeliver with `to`), and no SMTP configured (`logged`). The
 * service runs over PostgreSQL when it is reachable (always in CI), through the tests' harness.
 */
const mode = (await postgresTestsEnabled()) ? 'postgres' : 'memory';

interface Service {
  instance: Instance;
  url: string;
  api: Api;
  schema: string;
}

async function startService(emulator: Emulator, label: string, smtpUrl?: string) {
  const schema = freshSchema(label);
  const logger = createLogger({ name: 'review-inbox-delivery', level: 'silent' });
  const instance = await startInstance({
    mode,
    emulator,
    schema,
    mailTransport: smtpUrl
      ? createSmtpTransport({ url: smtpUrl, timeoutMs: 5_000 })
      : createLogTransport(logger),
    mailFrom: 'Support <support@shop.test>',
  });
  const url = await instance.listen();
  return { instance, url, api: apiClient(url), schema };
}

async function stopService(service: Service | undefined) {
  if (!service) return;
  await service.instance.close();
  if (mode === 'postgres') await dropSchema(service.schema);
}

interface History {
  events: { type: string; actor: string }[];
}

/** The words of one history line (without who acted or the details). */
const historyLine = (page: Page, type: string) =>
  page.locator(`#history li[data-event-type="${type}"] .timeline-text > span`).first();

describeInBrowser(`review inbox in Chromium: replies not sent by SMTP (${mode})`, () => {
  let emulator: Emulator;
  let sink: SmtpSink;
  let smtp: Service;
  let logOnly: Service;
  let browser: Browser;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    sink = await SmtpSink.start();
    smtp = await startService(emulator, 'inboxsmtp', sink.url);
    logOnly = await startService(emulator, 'inboxlog');
    browser = await launchBrowser();
  }, BROWSER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await stopService(smtp);
    await stopService(logOnly);
    await sink?.stop();
    await emulator?.close();
  }, BROWSER_TEST_TIMEOUT_MS);

  const openAt = async (service: Service, thread: Thread) => {
    const opened = await openPageAt(browser, service.url, thread);
    // Set once the page is loaded: still there at the end only if the page was never reloaded.
    await opened.page.evaluate('window.sameDocument = true');
    return opened;
  };

  test(
    'when a thread with no sender is approved with the recipient left empty, then the page says nothing was sent, and the address entered afterwards gets exactly one reply, shown Delivered without a reload',
    async () => {
      const thread = await createThread(smtp.api, { inbound: BILLING_EMAIL });
      expect(thread.email.from).toBeNull();
      const { page, trouble } = await openAt(smtp, thread);

      await page.locator('#approve').click();
      const step = page.getByRole('form', {
        name: 'Approve revision 1? It is sent only to an address you enter.',
      });
      await step.waitFor();
      expect(await focusedId(page)).toBe('recipient');
      expect(await page.locator('#recipient-hint').textContent()).toMatch(
        /^No recipient: .*Nothing will be sent unless you enter an address here/,
      );
      expect(await page.locator('#confirm-approve').textContent()).toBe('Approve without sending');
      // The button says what it will do as the field changes.
      await page.keyboard.type('x');
      expect(await page.locator('#confirm-approve').textContent()).toBe('Confirm approve');
      await page.keyboard.press('Backspace');
      expect(await page.locator('#confirm-approve').textContent()).toBe('Approve without sending');

      // Enter with the field empty approves: the field is not required without a sender.
      await page.keyboard.press('Enter');
      await openThread(page, thread.thread_id).and(page.locator('[data-status="sent"]')).waitFor();
      await deliveryShown(page, 'no_recipient');
      expect(await page.locator('#delivery-status').textContent()).toBe(
        "Not sent: no recipient. Add the customer's address to send it.",
      );
      expect(await page.locator('#notice').textContent()).toBe(
        'Approved. Nothing was sent: there is no recipient. Enter an address under “Recipient” to send the reply.',
      );
      // The next thing to do is to enter an address: the keyboard is already there.
      expect(await focusedId(page)).toBe('redeliver-to');
      expect((await smtp.api('GET', `/threads/${thread.thread_id}`)).body.delivery).toMatchObject({
        status: 'no_recipient',
        to: null,
        attempts: 0,
      });
      expect(sink.received).toHaveLength(0);

      await page.keyboard.type('Sam Reed <sam@example.org>');
      await page.keyboard.press('Enter');
      await deliveryShown(page, 'delivered');
      expect(await page.evaluate('window.sameDocument')).toBe(true);
      expect(await page.locator('#delivery-facts').textContent()).toContain(
        'To Sam Reed <sam@example.org>',
      );
      const delivery = (await smtp.api('GET', `/threads/${thread.thread_id}`)).body
        .delivery as Thread['delivery'] & { last_response: string | null };
      expect(delivery).toMatchObject({ status: 'delivered', to: 'Sam Reed <sam@example.org>' });
      expect(delivery.last_response).toMatch(/^250/);
      expect(await page.locator('#delivery-response').textContent()).toBe(
        `Mail server’s last reply: ${delivery.last_response}`,
      );
      expect(sink.received).toHaveLength(1);
      expect(sink.received[0]!.envelope.to).toEqual(['sam@example.org']);
      expect(sink.received[0]!.parsed.text).toContain(thread.draft!.split('\n')[0]);

      expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [] });
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when a reply was approved without a recipient and then sent to an entered address, then the history reads: not sent, recipient added, delivered',
    async () => {
      const thread = await createThread(smtp.api, { inbound: BILLING_EMAIL });
      expect(
        (await smtp.api('POST', `/threads/${thread.thread_id}/approve`, {})).body.delivery,
      ).toMatchObject({ status: 'no_recipient' });
      expect(
        (
          await smtp.api('POST', `/threads/${thread.thread_id}/redeliver`, {
            to: 'kim@example.org',
          })
        ).status,
      ).toBe(200);
      const { page, trouble } = await openAt(smtp, thread);
      await deliveryShown(page, 'delivered');
      await page.locator('#history li[data-event-type="delivered"]').waitFor();

      const events = (
        await smtp.api<History>('GET', `/threads/${thread.thread_id}/history`)
      ).body.events.map((event) => event.type);
      expect(events.slice(-4)).toEqual(['approved', 'no_recipient', 'redelivered', 'delivered']);
      const shown = await page
        .locator('#history li')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-event-type')));
      expect(shown).toEqual(events);

      expect(await historyLine(page, 'no_recipient').textContent()).toBe('Not sent: no recipient');
      expect(
        await page
          .locator('#history li[data-event-type="no_recipient"] .timeline-details')
          .textContent(),
      ).toBe('The email had no sender address to reply to.');
      expect(await historyLine(page, 'redelivered').textContent()).toBe(
        'Recipient added: reply queued for delivery',
      );
      expect(await historyLine(page, 'delivered').textContent()).toBe('Reply delivered');
      expect(
        sink.received.filter((mail) => mail.envelope.to.includes('kim@example.org')),
      ).toHaveLength(1);

      expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [] });
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the service has no SMTP server, then an approved reply is shown as logged, not delivered, in the card, the announcement and the history',
    async () => {
      const thread = await createThread(logOnly.api, {
        inbound: BILLING_EMAIL,
        from: 'Ann Lee <ann@example.com>',
      });
      const { page, trouble } = await openAt(logOnly, thread);

      await page.locator('#approve').click();
      await page.locator('#confirm-approve').click();
      await deliveryShown(page, 'logged');
      expect(await page.evaluate('window.sameDocument')).toBe(true);
      expect(await page.locator('#delivery-status').textContent()).toBe(
        'Logged (no SMTP configured): the reply was written to the service log, not emailed.',
      );
      expect(await page.locator('#announcer').textContent()).toBe(
        'Delivery: Logged (no SMTP configured): the reply was written to the service log, not emailed.',
      );
      const facts = await page.locator('#delivery-facts').textContent();
      expect(facts).toMatch(/^To Ann Lee <ann@example.com> · 1 attempt · logged /);
      expect(facts).not.toContain('delivered');
      expect(await page.locator('#delivery-response').count()).toBe(0);

      await page.locator('#history li[data-event-type="logged"]').waitFor();
      expect(await historyLine(page, 'logged').textContent()).toBe(
        'Reply logged (no SMTP configured), not emailed',
      );
      expect(await page.locator('#history li[data-event-type="delivered"]').count()).toBe(0);
      expect(
        (await logOnly.api('GET', `/threads/${thread.thread_id}`)).body.delivery,
      ).toMatchObject({ status: 'logged', to: 'Ann Lee <ann@example.com>' });

      expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [] });
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
