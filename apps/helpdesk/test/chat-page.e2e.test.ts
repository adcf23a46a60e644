import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  HUMAN_REQUEST,
  INVOICE_QUESTION,
  OUTAGE_QUESTION,
  startHelpdesk,
  type HelpdeskUnderTest,
} from './support/harness.js';
import {
  answersDone,
  BROWSER_TEST_TIMEOUT_MS,
  describeInBrowser,
  focusedId,
  launchBrowser,
  openPage,
  OUTPUT_DIR,
  seenSoFar,
  sendMessage,
  watchAnswers,
  type Browser,
} from './support/chat-page-browser.js';

const XSS = '<img src=x onerror=alert(1)>';

interface Transcript {
  turns: Array<{ role: string; agent: string | null; text: string; ticket_id?: string }>;
}

describeInBrowser('the chat page in Chromium', () => {
  let helpdesk: HelpdeskUnderTest;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    await mkdir(OUTPUT_DIR, { recursive: true });
    helpdesk = await startHelpdesk();
    url = await helpdesk.url();
    // The model's streamed answers arrive in steps, as a real provider's do.
    helpdesk.emulator.setChunkInterval(60);
    browser = await launchBrowser();
  }, BROWSER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await helpdesk?.close();
  }, BROWSER_TEST_TIMEOUT_MS);

  beforeEach(() => helpdesk.emulator.faults.clear());

  const transcriptOf = async (sessionId: string) =>
    (await helpdesk.http.get(`/sessions/${sessionId}`).expect(200)).body as Transcript;
  const sessionIdIn = (page: import('playwright-core').Page) =>
    page.evaluate<string>('localStorage.getItem("helpdesk.session-id") ?? ""');

  test(
    'when a customer asks billing, then technical, then for a human, then each answer streams in, names its specialist, shows its tool and the ticket, and a reload keeps it all',
    async () => {
      const { page, trouble } = await openPage(browser, url);
      await watchAnswers(page);

      // A slow model: the turn surely still runs when the customer tries to send again.
      helpdesk.emulator.setLatency(1_000);
      await sendMessage(page, INVOICE_QUESTION);
      // While the turn runs, nothing more can be sent.
      await page.locator('.message.assistant[data-state="streaming"]').waitFor();
      expect(await page.locator('#send').isDisabled()).toBe(true);
      await page.locator('#message').fill('A second message too early');
      await page.locator('#message').press('Enter');
      expect(await page.locator('.message.assistant[data-state="streaming"]').count()).toBe(1);
      helpdesk.emulator.setLatency(0);
      await answersDone(page, 1);
      expect(await page.locator('.message.user').count()).toBe(1);
      expect(await page.locator('#message').inputValue()).toBe('A second message too early');
      expect(await page.locator('#send').isDisabled()).toBe(false);
      await page.locator('#message').fill('');

      const billing = await seenSoFar(page);
      const billingAnswer = page.locator('.message.assistant').nth(0);
      expect(await billingAnswer.getAttribute('data-agent')).toBe('billing');
      expect(await billingAnswer.locator('.who').textContent()).toBe('Billing');
      expect(billing.statuses).toContain('Looking up invoice INV-1001…');
      // The text grew in at least three steps, each the one before plus more.
      expect(billing.texts.length).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < billing.texts.length; i++) {
        expect(billing.texts[i]!.startsWith(billing.texts[i - 1]!.trimEnd())).toBe(true);
      }

      await sendMessage(page, OUTAGE_QUESTION);
      await answersDone(page, 2);
      const technical = page.locator('.message.assistant').nth(1);
      expect(await technical.getAttribute('data-agent')).toBe('technical');
      expect((await seenSoFar(page)).statuses).toContain('Checking the status of api…');

      await sendMessage(page, HUMAN_REQUEST);
      await answersDone(page, 3);
      const escalation = page.locator('.message.assistant').nth(2);
      expect(await escalation.getAttribute('data-agent')).toBe('escalation');
      const ticketId = await escalation.locator('.ticket-id').textContent();
      expect(ticketId).toMatch(/^TCK-[A-Z0-9]{8}$/);
      expect(await escalation.locator('.ticket').isVisible()).toBe(true);

      const sessionId = await sessionIdIn(page);
      const recorded = await transcriptOf(sessionId);
      expect(recorded.turns.map((t) => t.agent)).toEqual([
        null,
        'billing',
        null,
        'technical',
        null,
        'escalation',
      ]);
      expect(recorded.turns[5]?.ticket_id).toBe(ticketId);
      const shownBefore = await page.locator('.message .text').allTextContents();
      await page.screenshot({ path: join(OUTPUT_DIR, 'chat-page.png') });

      await page.reload();
      await answersDone(page, 3);
      expect(await sessionIdIn(page)).toBe(sessionId);
      expect(await page.locator('.message .text').allTextContents()).toEqual(shownBefore);
      expect(
        await page.locator('.message.assistant').nth(2).locator('.ticket-id').textContent(),
      ).toBe(ticketId);
      expect(
        await page
          .locator('.message.assistant')
          .evaluateAll((items) => items.map((item) => item.getAttribute('data-agent'))),
      ).toEqual(['billing', 'technical', 'escalation']);
      expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [] });
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the model fails, then the page says so plainly and Retry answers the same message once',
    async () => {
      const { page, trouble } = await openPage(browser, url);
      await page.locator('#new-conversation').click();
      helpdesk.emulator.faults.add({ kind: 'status', status: 500, count: 50 });

      await sendMessage(page, INVOICE_QUESTION);
      await page.locator('#failure').waitFor();
      expect(await page.locator('#failure-text').textContent()).toBe(
        'Sorry, the help desk could not answer just now. Please retry.',
      );
      expect(await page.locator('.message.assistant').count()).toBe(0);

      helpdesk.emulator.faults.clear();
      await page.locator('#retry').click();
      await answersDone(page, 1);
      expect(await page.locator('#failure').isHidden()).toBe(true);
      expect(await page.locator('.message.user').count()).toBe(1);
      const recorded = await transcriptOf(await sessionIdIn(page));
      expect(recorded.turns.map((t) => [t.role, t.agent])).toEqual([
        ['user', null],
        ['assistant', 'billing'],
      ]);
      expect(trouble.pageErrors).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the connection drops mid-stream, then the answer the service finished is shown from the session, and the message was sent once',
    async () => {
      const { page, trouble } = await openPage(browser, url);
      await page.locator('#new-conversation').click();
      // The service answers in full; the browser gets the stream cut after its first event.
      await page.route(`${url}/chat`, async (route) => {
        const response = await route.fetch();
        const firstEvent = (await response.text()).split('\n\n')[0] + '\n\n';
        await route.fulfill({ response, body: firstEvent });
      });
      const chatsBefore = helpdesk.responses.filter((r) => r.path === '/chat').length;

      await sendMessage(page, INVOICE_QUESTION);
      await answersDone(page, 1);

      const recorded = await transcriptOf(await sessionIdIn(page));
      expect(recorded.turns).toHaveLength(2);
      expect(await page.locator('.message.assistant .text').textContent()).toBe(
        recorded.turns[1]?.text,
      );
      expect(await page.locator('.message.assistant').getAttribute('data-agent')).toBe('billing');
      // Read out to a screen reader as a streamed answer is.
      expect(await page.locator('#announcer').textContent()).toContain(recorded.turns[1]!.text);
      expect(helpdesk.responses.filter((r) => r.path === '/chat').length - chatsBefore).toBe(1);
      expect(await page.locator('#failure').isHidden()).toBe(true);
      expect(trouble.pageErrors).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the connection drops before the message reaches the service, then the page sends it once more, and only once',
    async () => {
      const { page, trouble } = await openPage(browser, url);
      await page.locator('#new-conversation').click();
      let attempts = 0;
      await page.route(`${url}/chat`, async (route) => {
        attempts += 1;
        if (attempts === 1) await route.abort('connectionreset');
        else await route.continue();
      });
      const chatsBefore = helpdesk.responses.filter((r) => r.path === '/chat').length;

      await sendMessage(page, OUTAGE_QUESTION);
      await answersDone(page, 1);

      expect(attempts).toBe(2);
      expect(helpdesk.responses.filter((r) => r.path === '/chat').length - chatsBefore).toBe(1);
      const recorded = await transcriptOf(await sessionIdIn(page));
      expect(recorded.turns.map((t) => t.role)).toEqual(['user', 'assistant']);
      expect(await page.locator('.message.user').count()).toBe(1);
      expect(trouble.pageErrors).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the conversation cannot be loaded on a reload, then Retry loads it',
    async () => {
      const { page, trouble } = await openPage(browser, url);
      await page.locator('#new-conversation').click();
      await sendMessage(page, INVOICE_QUESTION);
      await answersDone(page, 1);
      const sessionId = await sessionIdIn(page);
      let refused = 0;
      await page.route(`${url}/sessions/${sessionId}`, async (route) => {
        refused += 1;
        await route.fulfill({
          status: 503,
          contentType: 'application/problem+json',
          body: JSON.stringify({ status: 503, code: 'database_unavailable', title: 'Unavailable' }),
        });
      });

      await page.reload();
      await page.locator('#failure').waitFor();
      expect(await page.locator('.message').count()).toBe(0);
      expect(refused).toBe(1);
      await page.unroute(`${url}/sessions/${sessionId}`);
      await page.locator('#retry').click();

      await answersDone(page, 1);
      expect(await page.locator('.message.user .text').textContent()).toBe(INVOICE_QUESTION);
      expect(await page.locator('#failure').isHidden()).toBe(true);
      expect(trouble.pageErrors).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the browser refuses storage (a widget in a blocked third-party frame), then the chat still answers',
    async () => {
      const page = await browser.context.newPage();
      page.setDefaultTimeout(20_000);
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      // As Chromium does there: any access to either storage throws.
      await page.addInitScript({
        content: `for (const name of ['localStorage', 'sessionStorage'])
          Object.defineProperty(window, name, {
            get() { throw new DOMException('The operation is insecure.', 'SecurityError'); },
          });`,
      });
      await page.goto(url);

      await sendMessage(page, OUTAGE_QUESTION);
      await answersDone(page, 1);

      expect(await page.locator('.message.assistant').getAttribute('data-agent')).toBe('technical');
      expect(pageErrors).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when a message holds HTML, then it shows as text and runs nothing',
    async () => {
      const { page, trouble } = await openPage(browser, url);
      await page.locator('#new-conversation').click();

      await sendMessage(page, XSS);
      await answersDone(page, 1);

      expect(await page.locator('.message.user .text').textContent()).toBe(XSS);
      expect(await page.locator('#messages img').count()).toBe(0);
      await page.reload();
      await answersDone(page, 1);
      expect(await page.locator('.message.user .text').textContent()).toBe(XSS);
      expect(await page.locator('img').count()).toBe(0);
      expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [] });
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when a customer uses only the keyboard, then focus is visible, Enter sends, and New conversation starts over',
    async () => {
      const { page } = await openPage(browser, url);
      const outline = () =>
        page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle');

      await page.keyboard.press('Tab');
      expect(await focusedId(page)).toBe('new-conversation');
      expect(await outline()).not.toBe('none');
      await page.keyboard.press('Enter');
      expect(await focusedId(page)).toBe('message');

      await page.keyboard.type(OUTAGE_QUESTION);
      await page.keyboard.press('Enter');
      await answersDone(page, 1);
      expect(await page.locator('#announcer').textContent()).toMatch(/^Technical support: I have/);
      const firstSession = await sessionIdIn(page);
      expect(firstSession).not.toBe('');
      expect(await focusedId(page)).toBe('message');
      expect(await outline()).not.toBe('none');

      await page.keyboard.press('Shift+Tab');
      expect(await focusedId(page)).toBe('new-conversation');
      await page.keyboard.press('Enter');
      expect(await page.locator('.message').count()).toBe(0);
      expect(await focusedId(page)).toBe('message');
      expect(await sessionIdIn(page)).toBe('');
      await page.reload();
      expect(await page.locator('.message').count()).toBe(0);
      // The finished answer was announced to screen readers.
      expect(await page.locator('#announcer').getAttribute('aria-live')).toBe('polite');
      // The message box and its button have accessible names.
      expect(await page.getByLabel('Your message').count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(1);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the page shows a conversation, then its text and controls meet WCAG AA contrast',
    async () => {
      const { page } = await openPage(browser, url);
      await page.locator('#new-conversation').click();
      await sendMessage(page, HUMAN_REQUEST);
      await answersDone(page, 1);

      // WCAG 2.x contrast of each element's text color on the nearest opaque background behind it.
      const ratios = await page.evaluate<Array<[string, number]>>(`(() => {
        const rgb = (value) => value.match(/[\\d.]+/g).map(Number);
        const luminance = ([r, g, b]) => {
          const c = [r, g, b].map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
          return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
        };
        const background = (el) => {
          for (let node = el; node; node = node.parentElement) {
            const color = rgb(getComputedStyle(node).backgroundColor);
            if (color.length < 4 || color[3] === 1) return color;
          }
          return [255, 255, 255];
        };
        const selectors = ['h1', '#new-conversation', '.message.user .who', '.message.user .text',
          '.message.assistant .who', '.message.assistant .text', '.ticket', '.ticket-id',
          'label[for="message"]', '#composer-hint', '#send', '#empty'];
        return selectors.flatMap((selector) => {
          const el = document.querySelector(selector);
          if (!el || el.hidden || el.closest('[hidden]')) return [];
          const [a, b] = [luminance(rgb(getComputedStyle(el).color)), luminance(background(el))];
          return [[selector, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)]];
        });
      })()`);

      expect(ratios.length).toBeGreaterThanOrEqual(10);
      for (const [selector, ratio] of ratios)
        expect([selector, ratio >= 4.5]).toEqual([selector, true]);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the page is 360 px wide, then it fits without sideways scrolling and the answer shows',
    async () => {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width: 360, height: 640 });
      await page.goto(url);
      await page.locator('#new-conversation').click();

      await sendMessage(page, HUMAN_REQUEST);
      await answersDone(page, 1);

      expect(
        await page.evaluate<number>('document.documentElement.scrollWidth'),
      ).toBeLessThanOrEqual(360);
      for (const selector of ['#send', '#new-conversation', '.ticket', '#message']) {
        const box = (await page.locator(selector).boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(360);
      }
      await page.screenshot({ path: join(OUTPUT_DIR, 'chat-page-360.png') });
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when another site embeds widget.js, then its button opens the chat in a frame that talks to the service',
    async () => {
      const site: Server = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>` +
            `<script src="${url}/widget.js" defer></script></body></html>`,
        );
      });
      site.listen(0, '127.0.0.1');
      await once(site, 'listening');
      const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      try {
        const { page, trouble } = await openPage(browser, siteUrl);
        await page.locator('#helpdesk-widget-button').click();
        const frame = page.frameLocator('#helpdesk-widget-frame');
        // The frame shares this browser's storage for the service's origin with the tests above.
        await frame.locator('#new-conversation').click();
        await frame.locator('#message').fill(INVOICE_QUESTION);
        await frame.locator('#message').press('Enter');
        await frame.locator('.message.assistant[data-state="done"]').waitFor();

        expect(await frame.locator('.message.assistant').getAttribute('data-agent')).toBe(
          'billing',
        );
        const frameUrl = await page.locator('#helpdesk-widget-frame').getAttribute('src');
        expect(frameUrl?.startsWith(`${url}/`)).toBe(true);
        const sessionId = await page
          .frame({ url: (u) => u.href.startsWith(url) })!
          .evaluate<string>('localStorage.getItem("helpdesk.session-id") ?? ""');
        const recorded = await transcriptOf(sessionId);
        expect(recorded.turns[0]?.text).toBe(INVOICE_QUESTION);
        expect(await page.locator('#helpdesk-widget-button').getAttribute('aria-expanded')).toBe(
          'true',
        );
        expect(trouble.pageErrors).toEqual([]);
        await page.close();
      } finally {
        site.close();
        site.closeAllConnections();
      }
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});

describeInBrowser('the chat page in Chromium, with API_TOKEN', () => {
  const TOKEN = 'chat-page-token-0123456789';
  let helpdesk: HelpdeskUnderTest;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    helpdesk = await startHelpdesk({ apiToken: TOKEN });
    url = await helpdesk.url();
    browser = await launchBrowser();
  }, BROWSER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await helpdesk?.close();
  }, BROWSER_TEST_TIMEOUT_MS);

  test(
    'when the chat needs a token, then the page asks for it and sends the waiting message once it has it',
    async () => {
      const { page, trouble } = await openPage(browser, url);

      await sendMessage(page, INVOICE_QUESTION);
      await page.locator('#token-form').waitFor();
      expect(await focusedId(page)).toBe('token-input');
      expect(await page.locator('.message.assistant').count()).toBe(0);
      await page.keyboard.type(TOKEN);
      await page.keyboard.press('Enter');
      await answersDone(page, 1);

      expect(await page.locator('#token-form').isHidden()).toBe(true);
      expect(await page.locator('.message.user').count()).toBe(1);
      expect(await page.locator('.message.assistant').getAttribute('data-agent')).toBe('billing');
      const sessionId = await page.evaluate<string>('localStorage.getItem("helpdesk.session-id")');
      const recorded = await helpdesk.http
        .get(`/sessions/${sessionId}`)
        .set('authorization', `Bearer ${TOKEN}`)
        .expect(200);
      expect(recorded.body.turns).toHaveLength(2);
      // The 401 the page met first is the only console error.
      expect(trouble.consoleErrors.every((e) => e.includes('401'))).toBe(true);
      expect(trouble.pageErrors).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});

describeInBrowser('the chat page in Chromium, with API_TOKEN and WIDGET_PUBLIC', () => {
  const TOKEN = 'chat-page-public-token-0123456789';
  let helpdesk: HelpdeskUnderTest;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    helpdesk = await startHelpdesk({
      apiToken: TOKEN,
      widget: { public: { perIp: 100, perSession: 100 } },
    });
    url = await helpdesk.url();
    browser = await launchBrowser();
  }, BROWSER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await helpdesk?.close();
  }, BROWSER_TEST_TIMEOUT_MS);

  const stored = (page: import('playwright-core').Page) =>
    page.evaluate<{ id: string | null; token: string | null }>(
      '({ id: localStorage.getItem("helpdesk.session-id"), token: localStorage.getItem("helpdesk.widget-token") })',
    );

  test(
    'when a customer without a token chats, then the conversation the service started answers, a reload shows it, and its id alone reads nothing',
    async () => {
      const { page, trouble } = await openPage(browser, url);

      await sendMessage(page, `${INVOICE_QUESTION} My billing email is ap@acme.example`);
      await answersDone(page, 1);
      await sendMessage(page, OUTAGE_QUESTION);
      await answersDone(page, 2);

      expect(await page.locator('#token-form').isHidden()).toBe(true);
      expect(await page.locator('.message.assistant .text').first().textContent()).toContain(
        '1250',
      );
      const { id, token } = await stored(page);
      expect(id).toMatch(/^web-[0-9a-f]{32}$/);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await helpdesk.http.get(`/sessions/${id}`).expect(404);
      const shownBefore = await page.locator('.message .text').allTextContents();

      await page.reload();
      await answersDone(page, 2);
      expect(await page.locator('.message .text').allTextContents()).toEqual(shownBefore);
      expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [] });
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the conversation is gone (expired or deleted), then the next message starts another and is answered there',
    async () => {
      const { page, trouble } = await openPage(browser, url);
      // A browser of its own: no conversation of the test before.
      await page.evaluate('localStorage.clear()');
      await page.reload();
      await sendMessage(page, OUTAGE_QUESTION);
      await answersDone(page, 1);
      const before = await stored(page);
      await helpdesk.http
        .delete(`/sessions/${before.id}`)
        .set('authorization', `Bearer ${TOKEN}`)
        .expect(204);

      await sendMessage(page, INVOICE_QUESTION);
      await answersDone(page, 2);

      const after = await stored(page);
      expect(after.id).not.toBe(before.id);
      const recorded = await helpdesk.http
        .get(`/sessions/${after.id}`)
        .set('x-widget-token', after.token!)
        .expect(200);
      expect(recorded.body.turns.map((turn: { text: string }) => turn.text)[0]).toBe(
        INVOICE_QUESTION,
      );
      expect(trouble.pageErrors).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
