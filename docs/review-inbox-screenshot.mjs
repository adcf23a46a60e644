// Regenerates docs/review-inbox.png: email-review against the emulator, a few customer emails, one thread open.
//   npx -y pnpm@10.34.8 turbo run build --filter=email-review --filter=@repo/llm-emulator
//   node docs/review-inbox-screenshot.mjs            # needs Chromium at /usr/bin/chromium (or CHROMIUM=...)
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';

const repo = fileURLToPath(new URL('..', import.meta.url));
// playwright-core is a devDependency of email-review (its browser test).
const { chromium } = createRequire(`${repo}apps/email-review/package.json`)('playwright-core');
const EMULATOR_PORT = 14710;
const APP_PORT = 14701;

const EMAILS = [
  "Hi,\n\nSince this morning the CSV export in the dashboard fails with error 500 every time I try to download last month's report. Is the service down?\n\nBest,\nMaria",
  "Hello,\n\nI can't log in to my account: the password reset email never arrives, and I have already checked the spam folder. Could you help me get back in?\n\nKind regards,\nTom Becker",
  'This is the third time I am writing about my damaged order #4471 and nobody has answered. I want to speak to a manager today.\n\nJames Porter',
  'Hi,\n\nI was charged twice for invoice INV-20431 this month. The second payment went out on March 4; could you refund it?\n\nThanks,\nDana Whitfield',
];

const children = [];
function start(cwd, args, env) {
  const child = spawn(process.execPath, args, {
    cwd: `${repo}${cwd}`,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
}

async function healthy(url) {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await delay(150);
  }
  throw new Error(`${url} did not answer`);
}

const base = `http://127.0.0.1:${APP_PORT}`;
async function api(method, path, body) {
  const response = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(JSON.stringify(json));
  return json;
}

try {
  start(
    'packages/llm-emulator',
    ['dist/cli.js', '--port', String(EMULATOR_PORT), '--host', '127.0.0.1'],
    {},
  );
  await healthy(`http://127.0.0.1:${EMULATOR_PORT}/healthz`);
  start('apps/email-review', ['dist/server.js'], {
    PORT: String(APP_PORT),
    HOST: '127.0.0.1',
    LLM_A_API_KEY: 'screenshot',
    LLM_A_BASE_URL: `http://127.0.0.1:${EMULATOR_PORT}/v1`,
    LOG_LEVEL: 'warn',
  });
  await healthy(`${base}/healthz`);

  const ids = [];
  for (const inbound of EMAILS) {
    ids.push((await api('POST', '/threads', { inbound })).thread_id);
    await delay(1_100); // distinct received times, newest first
  }
  const [, account, , billing] = ids;
  await api('POST', `/threads/${billing}/edit`, {
    instructions: 'Mention that the duplicate payment is refunded within 5 business days.',
  });
  await api('POST', `/threads/${account}/approve`);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const page = await browser.newPage({ viewport: { width: 1366, height: 860 } });
  await page.goto(`${base}/`);
  await page.locator(`a.thread-item[data-thread-id="${billing}"]`).click();
  await page
    .locator(`article.thread[data-thread-id="${billing}"]`)
    .and(page.locator('[aria-busy="false"]'))
    .waitFor();
  await page.screenshot({ path: `${repo}docs/review-inbox.png` });
  await browser.close();
} finally {
  children.reverse().forEach((child) => child.kill('SIGTERM'));
}
