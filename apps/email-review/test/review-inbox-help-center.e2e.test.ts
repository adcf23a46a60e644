import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSupportConfig } from '@repo/support-profile';
import type { Page } from 'playwright-core';
import { labelsOf } from '../src/workflow/classification.js';
import {
  BROWSER_TEST_TIMEOUT_MS,
  createThread,
  describeInBrowser,
  launchBrowser,
  startStack,
  threadItem,
  waitUntilIdle,
  type Browser,
  type Stack,
} from './support/review-inbox-browser.js';
import { tabWithToken } from './support/review-inbox-tab.js';

// Issues 46 and 39 in the inbox: the profile's categories as filters and badges, a flagged
// (ungrounded) draft, and the cited passages beside the draft, as text.

const SAMPLES = fileURLToPath(
  new URL('../../../packages/knowledge/sample-help-center/', import.meta.url),
);
const FIVE = ['orders', 'repairs', 'invoices', 'partnerships', 'junk'];
const HOSTILE_ARTICLE = `---
title: Glowworm recovery <img src=x onerror="window.pwned = 'title'">
---

# Glowworm recovery

## Recovery mode

Glowworm recovery takes two minutes. <img src=x onerror="window.pwned = 'img'"> Hold the button for ten seconds, then [open the glowworm console](javascript:window.pwned='link') or <a href="javascript:window.pwned='a'">this</a>.
`;

describeInBrowser('review inbox in Chromium: profile categories and help center sources', () => {
  const token = 'review-inbox-kb-token';
  const dir = mkdtempSync(join(tmpdir(), 'er-inbox-kb-'));
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    cpSync(SAMPLES, join(dir, 'kb'), { recursive: true });
    writeFileSync(join(dir, 'kb', 'glowworm-recovery.md'), HOSTILE_ARTICLE);
    writeFileSync(
      join(dir, 'profile.yaml'),
      `categories:\n${FIVE.map((name) => `  - { name: ${name} }`).join('\n')}\n`,
    );
    const { profile, prompts } = loadSupportConfig({
      SUPPORT_PROFILE_FILE: join(dir, 'profile.yaml'),
    });
    stack = await startStack(token, undefined, {
      support: { prompts, labels: labelsOf(profile) },
      helpCenter: { dir: join(dir, 'kb') },
    });
    browser = await launchBrowser();
  }, BROWSER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  }, BROWSER_TEST_TIMEOUT_MS);

  const optionsOf = (page: Page) =>
    page
      .locator('#category-filter option')
      .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));

  test('when the profile has five categories, then the filter offers exactly them, and filtering by one lists only its threads', async () => {
    const order = await createThread(stack.api, {
      inbound: 'Where is my order? It was to be delivered last week.',
    });
    const other = await createThread(stack.api, {
      inbound: 'BUY CHEAP WATCHES NOW!!! Limited offer, click here.',
    });
    expect(order.classification!.category).not.toBe(other.classification!.category);
    const page = await tabWithToken(browser, stack.url, token);
    await threadItem(page, order.thread_id).waitFor();

    await page.locator('#category-filter option[value="junk"]').waitFor({ state: 'attached' });
    expect(await optionsOf(page)).toEqual(['', ...FIVE]);
    await page.locator('#category-filter').selectOption(order.classification!.category);

    await threadItem(page, other.thread_id).waitFor({ state: 'detached' });
    await threadItem(page, order.thread_id).waitFor();
    const shown = await page.locator('a.thread-item [data-field="category"]').allTextContents();
    expect(new Set(shown).size).toBe(1);
    await page.close();
  });

  test('when a draft cites an article holding markup and javascript: links, then the passage shows beside the draft as text, and nothing of it runs', async () => {
    const thread = await createThread(stack.api, {
      subject: 'Glowworm',
      inbound: 'How does glowworm recovery work?',
    });
    expect(thread.draft).toContain('[kb:glowworm-recovery]');
    const page = await tabWithToken(browser, stack.url, token, `#/threads/${thread.thread_id}`);
    await waitUntilIdle(page, thread.thread_id);

    const source = page.locator('.source[data-slug="glowworm-recovery"]');
    await source.waitFor();
    expect(await source.locator('.source-title').textContent()).toBe(
      `Glowworm recovery <img src=x onerror="window.pwned = 'title'"> · [kb:glowworm-recovery]`,
    );
    const passage = await source.locator('.source-passage').textContent();
    expect(passage).toContain(`<img src=x onerror="window.pwned = 'img'">`);
    expect(passage).toContain(`(javascript:window.pwned='link')`);
    expect(await page.locator('.source img, .source a, .source-passage *').count()).toBe(0);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    await page.close();
  });

  test('when a draft cites nothing, then the list flags it Ungrounded, the filter lists it alone, and the thread says so', async () => {
    const grounded = await createThread(stack.api, {
      subject: 'Refunds',
      inbound: 'What is your refund window?',
    });
    const ungrounded = await createThread(stack.api, {
      subject: 'Quokka',
      inbound: 'Quokka xylophone zebra?',
    });
    const page = await tabWithToken(browser, stack.url, token);
    await threadItem(page, ungrounded.thread_id).waitFor();

    await page.locator('#ungrounded-filter').check();

    await threadItem(page, grounded.thread_id).waitFor({ state: 'detached' });
    const item = threadItem(page, ungrounded.thread_id);
    expect(await item.locator('[data-field="grounding"]').textContent()).toBe('Ungrounded');
    await item.click();
    await waitUntilIdle(page, ungrounded.thread_id);
    await page.locator('#ungrounded-notice').waitFor();
    await page.close();
  });
});
