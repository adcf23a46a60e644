import type { ChangeFeed } from '../../src/changes/change-feed.js';
import { requireInstalled } from '@repo/jest-preset/test-servers.mjs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, serve, type NamedToken, type RunningServer } from '@repo/http-kit';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import OpenAI from 'openai';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createSmtpTransport } from '../../src/delivery/smtp-transport.js';
import { createEmailReview, type EmailReviewDeps } from '../../src/email-review.js';
import { createMemoryPersistence } from '../../src/persistence/memory-persistence.js';
import { recordResponse } from './observed-responses.js';

/** The review inbox's browser tests: email-review over the emulator, and Debian's Chromium. */

const CHROMIUM = '/usr/bin/chromium';
export const OUTPUT_DIR = fileURLToPath(new URL('../../test-output/', import.meta.url));
// A missing browser fails the tests (one sentence naming the install line, from launchBrowser):
// the README's preparation line installs it, so a skip would only hide an unprepared machine.
export const describeInBrowser = describe;

export const BROWSER_TEST_TIMEOUT_MS = 60_000;

/** A customer email without headers, as a reviewer meets most of them. */
export const BILLING_EMAIL =
  'Hi,\n\nI was charged twice for invoice #4411 in March. Please refund the duplicate charge.\n\nThanks,\nDana';

export interface Thread {
  thread_id: string;
  status: string;
  inbound: string;
  email: { from: string | null; subject: string | null };
  classification: { category: string; urgency: string; summary: string } | null;
  draft: string | null;
  revision: number;
  sent_at: string | null;
  delivery: { status: string; to: string | null; attempts: number } | null;
}

/** The service's API over HTTP, as a test calls it beside the page. */
export type Api = <T = Thread>(
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: T }>;

export function apiClient(baseUrl: string, apiToken?: string): Api {
  return async <T = Thread>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(apiToken ? { authorization: `Bearer ${apiToken}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
}

/** A thread created through the API, drafted and waiting for review. */
export async function createThread(api: Api, body: Record<string, string>): Promise<Thread> {
  const { status, body: thread } = await api('POST', '/threads', body);
  expect([status, thread.status]).toEqual([201, 'awaiting_review']);
  return thread;
}

export interface Stack {
  url: string;
  emulator: Emulator;
  api: Api;
  /** The service's change feed (GET /events), for a test that cuts its streams (`gap`). */
  changes: ChangeFeed;
  close(): Promise<void>;
}

/**
 * email-review in memory mode over the emulator, listening on 127.0.0.1; SMTP delivery when given.
 * `access`: the one API token, or named reviewers' tokens (the history names them; `api` is the first's).
 */
export async function startStack(
  access?: string | NamedToken[],
  delivery?: { smtpUrl: string; timeoutMs?: number },
  /** The support profile's prompts and labels, and the help center (loaded before the stack serves). */
  profile?: Pick<EmailReviewDeps, 'support' | 'helpCenter'>,
): Promise<Stack> {
  const apiToken = typeof access === 'string' ? access : access?.[0]?.token;
  const emulator = await startEmulator({ port: 0 });
  const logger = createLogger({ name: 'email-review-e2e', level: 'silent' });
  const persistence = createMemoryPersistence();
  const service = createEmailReview({
    persistence,
    llm: new OpenAI({ apiKey: 'emulated', baseURL: `${emulator.url}/v1`, maxRetries: 0 }),
    model: 'gpt-4.1-mini',
    logger,
    ...(typeof access === 'string' ? { apiToken } : {}),
    ...(Array.isArray(access) ? { auth: { tokens: access } } : {}),
    ...(delivery
      ? {
          transport: createSmtpTransport({
            url: delivery.smtpUrl,
            timeoutMs: delivery.timeoutMs ?? 2_000,
          }),
          mailFrom: 'Support <support@shop.test>',
        }
      : {}),
    onResponse: recordResponse,
    ...profile,
  });
  await service.helpCenter.start();
  if (delivery) await service.delivery.start();
  const { app } = service;
  const server: RunningServer = await serve(app, {
    port: 0,
    host: '127.0.0.1',
    logger,
    handleSignals: false,
  });
  return {
    url: server.url,
    emulator,
    changes: persistence.changes,
    api: apiClient(server.url, apiToken),
    close: async () => {
      await server.close();
      await service.helpCenter.close();
      await service.delivery.stop();
      // Guideline derivations still running (issue 40) finish before the emulator goes.
      await service.guidelines.stop();
      await persistence.close();
      await emulator.close();
    },
  };
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  requireInstalled('Chromium', CHROMIUM);
  const userDataDir = await mkdtemp(join(tmpdir(), 'review-inbox-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport: { width: 1366, height: 860 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Everything the page reported that a reviewer would call a malfunction. */
export interface PageTrouble {
  consoleErrors: string[];
  pageErrors: string[];
  dialogs: string[];
}

export async function openPage(
  browser: Browser,
  url: string,
  options: { live?: boolean } = {},
): Promise<{ page: Page; trouble: PageTrouble }> {
  const page = await browser.context.newPage();
  // `live: false`: a page whose change stream (GET /events) has told it nothing, as when a change
  // lands the moment before the reviewer clicks: what the page does when it acts on a stale view.
  if (options.live === false) {
    await page.route('**/events', (route) =>
      route.fulfill({ status: 200, contentType: 'text/event-stream', body: '' }),
    );
  }
  page.setDefaultTimeout(15_000);
  const trouble: PageTrouble = { consoleErrors: [], pageErrors: [], dialogs: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') trouble.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => trouble.pageErrors.push(error.message));
  page.on('dialog', (dialog) => {
    trouble.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(url);
  return { page, trouble };
}

/** The page opened at one thread (`baseUrl`/#/threads/<id>), once it shows the thread idle. */
export async function openPageAt(browser: Browser, baseUrl: string, thread: Thread) {
  const opened = await openPage(browser, `${baseUrl}/#/threads/${thread.thread_id}`);
  await waitUntilIdle(opened.page, thread.thread_id);
  return opened;
}

export const threadItem = (page: Page, id: string) =>
  page.locator(`a.thread-item[data-thread-id="${id}"]`);
export const openThread = (page: Page, id: string) =>
  page.locator(`article.thread[data-thread-id="${id}"]`);

export async function waitUntilIdle(page: Page, id: string): Promise<void> {
  await openThread(page, id).and(page.locator('[aria-busy="false"]')).waitFor();
}

/** The id of the element that has the keyboard focus. */
export const focusedId = (page: Page): Promise<string> =>
  page.evaluate<string>('document.activeElement?.id ?? ""');

/** Approve or reject in the page as a reviewer does: the button, then its confirmation. */
export async function decide(page: Page, kind: 'approve' | 'reject'): Promise<void> {
  await page.locator(`#${kind}`).click();
  await page.locator(`#confirm-${kind}`).click();
}

/** The page's delivery card reaching `status` by itself: no reload, no click. */
export const deliveryShown = (page: Page, status: string) =>
  page.locator(`[data-delivery-status="${status}"]`).waitFor();
