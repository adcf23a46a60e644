import {
  BROWSER_TEST_TIMEOUT_MS,
  createThread,
  describeInBrowser,
  launchBrowser,
  startStack,
  waitUntilIdle,
  type Browser,
  type Stack,
} from './support/review-inbox-browser.js';
import type { Page } from 'playwright-core';
import { until } from './support/database.js';
import { tabWithToken } from './support/review-inbox-tab.js';

// Issue 40 in the inbox: which guidelines shaped a draft, removing one in one action, the learned
// guidelines with their provenance and the quality figures — all of it as text.

interface GuidelineView {
  id: string;
  rule: string;
}

const HOSTILE_RULE = `<img src=x onerror="window.pwned = 'rule'"> Greet warmly`;

describeInBrowser('review inbox in Chromium: reviewer guidelines and draft quality', () => {
  const token = 'review-inbox-guidelines-token';
  let stack: Stack;
  let browser: Browser;
  const guidelines = async () =>
    (await stack.api<{ guidelines: GuidelineView[] }>('GET', '/guidelines')).body.guidelines;

  beforeAll(async () => {
    stack = await startStack(token);
    browser = await launchBrowser();
  }, BROWSER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  }, BROWSER_TEST_TIMEOUT_MS);

  test('when a draft was given learned guidelines, then they show beside it as text, one is removed in one action, and the panel lists the rest with provenance and the figures', async () => {
    const first = await createThread(stack.api, {
      from: 'Ann <ann@acme.test>',
      inbound: 'Hello, where is my order A-1?',
    });
    const [, ...rest] = first.draft!.split('\n');
    const edited = ['Dear Ann,', '', 'Order reference: A-1', ...rest].join('\n');
    expect(
      (await stack.api('POST', `/threads/${first.thread_id}/edit`, { draft: edited })).status,
    ).toBe(200);
    expect((await stack.api('POST', `/threads/${first.thread_id}/approve`, {})).status).toBe(200);
    await until(async () => (await guidelines()).length === 2, 'two guidelines learned');
    const greeting = (await guidelines()).find((g) => g.rule.startsWith('Greet'))!;
    const reference = (await guidelines()).find((g) => g.rule.startsWith('Include'))!;
    const renamed = await stack.api('PATCH', `/guidelines/${reference.id}`, { rule: HOSTILE_RULE });
    expect(renamed.status).toBe(200);

    const second = await createThread(stack.api, {
      from: 'Bob <bob@acme.test>',
      inbound: 'Hello, where is my order A-2?',
    });
    const page = await tabWithToken(browser, stack.url, token, `#/threads/${second.thread_id}`);
    await waitUntilIdle(page, second.thread_id);

    const shaped = page.locator('#shaped-by');
    await shaped.waitFor();
    expect(await shaped.locator('.guideline-rule').allTextContents()).toEqual(
      expect.arrayContaining([HOSTILE_RULE, greeting.rule]),
    );
    expect(await page.locator('.guideline img, .guideline-rule *').count()).toBe(0);

    await shaped.locator(`[data-guideline-id="${greeting.id}"] button.remove-guideline`).click();

    await shaped.locator(`[data-guideline-id="${greeting.id}"].guideline-removed`).waitFor();
    expect((await guidelines()).map((g) => g.id)).toEqual([reference.id]);
    const third = await createThread(stack.api, {
      from: 'Cy <cy@acme.test>',
      inbound: 'Hello, where is my order A-3?',
    });
    expect(
      (third as unknown as { drafted_with: { guidelines: GuidelineView[] } }).drafted_with
        .guidelines,
    ).toEqual([{ id: reference.id, rule: HOSTILE_RULE }]);

    await page.locator('#learning summary').click();
    const learned = page.locator('#learned-guidelines .guideline');
    await learned.first().waitFor();
    expect(await learned.count()).toBe(1);
    expect(await learned.locator('.guideline-rule').textContent()).toBe(HOSTILE_RULE);
    expect(await learned.locator('.guideline-provenance').textContent()).toContain(first.thread_id);
    expect(await learned.locator('.guideline-scope').textContent()).toBe('Domain: acme.test');
    expect(await page.locator('[data-figure="decided"]').textContent()).toBe('1 / 0');
    expect(await page.locator('[data-figure="unedited_share"]').textContent()).toBe('0 %');
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    await page.close();
  });

  test('when a reviewer rejects with a reason from the list and a note, then /quality counts the reason with the thread and the note, and the panel shows it', async () => {
    const thread = await createThread(stack.api, {
      from: 'Dan <dan@reasons.test>',
      inbound: 'Hello, can you cancel my order R-1?',
    });
    const page = await tabWithToken(browser, stack.url, token, `#/threads/${thread.thread_id}`);
    await waitUntilIdle(page, thread.thread_id);

    await page.locator('#reject').click();
    await page.locator('#reject-category').selectOption('wrong_tone');
    await page.locator('#reject-reason').fill('Too casual for this customer.');
    await page.locator('#confirm-reject').click();

    await openThreadRejected(page, thread.thread_id);
    const quality = await stack.api<{
      overall: { reject_reasons: { reason: string; thread_ids: string[]; notes: string[] }[] };
    }>('GET', '/quality');
    expect(quality.body.overall.reject_reasons).toEqual([
      {
        reason: 'wrong_tone',
        count: 1,
        thread_ids: [thread.thread_id],
        notes: ['Too casual for this customer.'],
      },
    ]);
    await page.locator('#learning summary').click();
    await page.locator('.reject-reasons li').waitFor();
    expect(await page.locator('.reject-reasons li').textContent()).toBe(
      `Wrong tone: 1 (${thread.thread_id})`,
    );
    await page.close();
  });
});

const openThreadRejected = (page: Page, id: string) =>
  page.locator(`article.thread[data-thread-id="${id}"][data-status="rejected"]`).waitFor();
