import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import {
  callerOf,
  INVOICE_QUESTION,
  startHelpdesk,
  textsIn,
  type HelpdeskUnderTest,
} from './support/harness.js';
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

const ALICE = 'alice-operator-token-0123';
const CUSTOMER_MARKUP = 'Is <b>this</b> a person? <img src=x onerror=alert(1)>';
const OPERATOR_MARKUP = 'Yes, <i>Alice</i> here. <script>alert(2)</script>';

/** Elements (not text) inside a page's messages: markup a message would have smuggled in. */
const markupIn = (page: Page, selector: string) =>
  page.locator(`${selector} img, ${selector} script, ${selector} b, ${selector} i`).count();

describeInBrowser('the operator console and the chat page in Chromium', () => {
  let helpdesk: HelpdeskUnderTest;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    await mkdir(OUTPUT_DIR, { recursive: true });
    helpdesk = await startHelpdesk({
      auth: { tokens: [{ name: 'alice', token: ALICE }] },
      operators: ['alice'],
      widget: { public: { perIp: 1_000, perSession: 1_000 } },
    });
    url = await helpdesk.url();
    browser = await launchBrowser();
  }, BROWSER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await helpdesk?.close();
  }, BROWSER_TEST_TIMEOUT_MS);

  test(
    'when a customer asks for a person, then an operator takes over, answers live, and hands back to the agents',
    async () => {
      const { page: customer, trouble: customerTrouble } = await openPage(browser, url);
      const { page: operator, trouble: operatorTrouble } = await openPage(
        browser,
        `${url}/console/`,
      );
      await operator.locator('#token-input').fill(ALICE);
      await operator.locator('#token-input').press('Enter');
      await operator.locator('#live-status', { hasText: 'Live' }).waitFor();

      await sendMessage(customer, 'I want to talk to a person');
      await answersDone(customer, 1);
      const answeredAt = Date.now();
      // Within a second of the customer's answer the conversation is in the console's queue.
      await operator.locator('.queue-item').first().waitFor({ timeout: 1_000 });
      const inQueueMs = Date.now() - answeredAt;
      expect(await operator.locator('.queue-item .state').first().textContent()).toBe('Waiting');

      await operator.locator('.queue-item button').first().click();
      await operator.locator('#take-over').click();
      await customer.locator('#answering', { hasText: 'alice (a person) is answering.' }).waitFor();

      const modelCallsBefore = helpdesk.modelCalls().length;
      await sendMessage(customer, CUSTOMER_MARKUP);
      const heard = operator.locator('.message.user .text', { hasText: 'onerror' });
      await heard.waitFor();
      expect(await heard.textContent()).toBe(CUSTOMER_MARKUP);
      expect(helpdesk.modelCalls()).toHaveLength(modelCallsBefore);

      await operator.locator('#reply').fill(OPERATOR_MARKUP);
      await operator.locator('#reply').press('Enter');
      const reply = customer.locator('.message.operator .text');
      await reply.waitFor();
      expect(await reply.textContent()).toBe(OPERATOR_MARKUP);
      expect(await customer.locator('.message.operator .who').textContent()).toBe(
        'alice (a person)',
      );
      expect(await customer.locator('.message.user .text').last().textContent()).toBe(
        CUSTOMER_MARKUP,
      );
      await operator.locator('.message.operator .text', { hasText: 'Alice' }).waitFor();
      expect(await markupIn(customer, '#messages')).toBe(0);
      expect(await markupIn(operator, '#messages')).toBe(0);
      await operator.screenshot({ path: `${OUTPUT_DIR}operator-console.png` });

      await operator.locator('#hand-back').click();
      await customer.locator('.message.notice', { hasText: 'answering again' }).waitFor();
      await sendMessage(customer, INVOICE_QUESTION);
      await answersDone(customer, 2);
      expect(await customer.locator('.message.assistant .who').last().textContent()).toBe(
        'Billing',
      );
      const afterHandBack = helpdesk.modelCalls().slice(modelCallsBefore);
      expect(afterHandBack.map(callerOf).slice(0, 2)).toEqual(['coordinator', 'billing']);
      // The coordinator's transfer, as ADK shows it to the specialist it handed the message to.
      expect(textsIn(afterHandBack[1]!)).toMatch(
        /called tool `transfer_to_agent` with parameters: \{"agent_?[nN]ame":"billing"\}/,
      );

      // Both pages after a reload: the transcript as the service keeps it, markup as text.
      await customer.reload();
      await customer.locator('.message.operator .text').waitFor();
      expect(await customer.locator('.message.operator .text').textContent()).toBe(OPERATOR_MARKUP);
      expect(await markupIn(customer, '#messages')).toBe(0);

      for (const trouble of [customerTrouble, operatorTrouble]) {
        expect(trouble.pageErrors).toEqual([]);
        expect(trouble.dialogs).toEqual([]);
      }
      expect(customerTrouble.consoleErrors).toEqual([]);
      // The console's first load, before the token: the 401 that made it ask for one.
      expect(operatorTrouble.consoleErrors).toEqual([
        expect.stringContaining('status of 401 (Unauthorized)'),
      ]);
      expect(inQueueMs).toBeLessThan(1_000);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
