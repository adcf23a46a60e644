import { mkdir } from 'node:fs/promises';
import { SAMPLE_HELP_CENTER, startHelpdesk, type HelpdeskUnderTest } from './support/harness.js';
import {
  answersDone,
  BROWSER_TEST_TIMEOUT_MS,
  describeInBrowser,
  launchBrowser,
  openPage,
  OUTPUT_DIR,
  sendMessage,
  type Browser,
} from './support/chat-page-browser.js';

const IMG = '<img src=x onerror=alert(1)>';
const LINK = '[the timetable](javascript:alert(2))';

describeInBrowser('the chat page’s sources in Chromium', () => {
  let helpdesk: HelpdeskUnderTest;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    await mkdir(OUTPUT_DIR, { recursive: true });
    helpdesk = await startHelpdesk({ helpCenter: { dir: SAMPLE_HELP_CENTER } });
    url = await helpdesk.url();
    browser = await launchBrowser();
  }, BROWSER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await helpdesk?.close();
  }, BROWSER_TEST_TIMEOUT_MS);

  test(
    'when an answer cites the help center, then the page shows the article’s title, opens its passages, and a reload keeps them',
    async () => {
      const { page, trouble } = await openPage(browser, url);

      await sendMessage(page, 'How long does shipping take?');
      await answersDone(page, 1);

      const answer = page.locator('.message.assistant').first();
      expect(await answer.locator('.text').textContent()).toContain('[kb:shipping-times]');
      const title = answer.locator('.source-title');
      expect(await title.allTextContents()).toEqual(['Shipping times and costs']);
      expect(await answer.locator('.source-text').isVisible()).toBe(false);
      await title.click();
      expect(await answer.locator('.source-text').textContent()).toMatch(/business day/);
      await page.reload();
      await answersDone(page, 1);
      expect(await page.locator('.message.assistant .source-title').allTextContents()).toEqual([
        'Shipping times and costs',
      ]);
      expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [] });
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    'when the cited article holds markup and a javascript: link, then the page shows them as text',
    async () => {
      await helpdesk.http
        .put('/kb/articles/zeppelin-delivery')
        .send({
          title: `Zeppelin delivery ${IMG}`,
          body: `# Zeppelin delivery\n\nZeppelin delivery takes ${IMG} three weeks. See ${LINK}.\n`,
        })
        .expect(201);
      const { page, trouble } = await openPage(browser, url);
      await page.locator('#new-conversation').click();

      await sendMessage(page, 'How long does zeppelin delivery take?');
      await answersDone(page, 1);
      const answer = page.locator('.message.assistant').first();
      await answer.locator('.source-title').click();

      expect(await answer.locator('.source-title').textContent()).toBe(`Zeppelin delivery ${IMG}`);
      const text = await answer.locator('.source-text').textContent();
      expect(text).toContain(`takes ${IMG} three weeks`);
      expect(text).toContain(LINK);
      expect(await answer.locator('.text').textContent()).toContain(IMG);
      expect(await page.locator('#messages img').count()).toBe(0);
      expect(await page.locator('#messages a').count()).toBe(0);
      expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [] });
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
