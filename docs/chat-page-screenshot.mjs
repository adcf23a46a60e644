// Regenerates docs/chat-page.png: helpdesk's customer chat against the emulator, mid-stream.
//   npx -y pnpm@10.34.8 turbo run build --filter=helpdesk --filter=@repo/llm-emulator
//   node docs/chat-page-screenshot.mjs            # needs Chromium at /usr/bin/chromium (or CHROMIUM=...)
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';

const repo = fileURLToPath(new URL('..', import.meta.url));
// playwright-core is a devDependency of helpdesk (its browser test).
const { chromium } = createRequire(`${repo}apps/helpdesk/package.json`)('playwright-core');
const EMULATOR_PORT = 14720;
const APP_PORT = 14702;
const emulator = `http://127.0.0.1:${EMULATOR_PORT}`;
const base = `http://127.0.0.1:${APP_PORT}`;
const SESSION = 'web-screenshot-0001';

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

async function post(url, body, method = 'POST') {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

try {
  start(
    'packages/llm-emulator',
    ['dist/cli.js', '--port', String(EMULATOR_PORT), '--host', '127.0.0.1'],
    {},
  );
  await healthy(`${emulator}/healthz`);
  start('apps/helpdesk', ['dist/server.js'], {
    PORT: String(APP_PORT),
    HOST: '127.0.0.1',
    AGENT_LLM_API_KEY: 'screenshot',
    AGENT_LLM_BASE_URL: emulator,
    LOG_LEVEL: 'warn',
  });
  await healthy(`${base}/healthz`);

  // Two answered questions first, then the third streams in the page.
  for (const message of [
    'What is the amount due on invoice INV-1001?',
    'Is the dashboard down? I get error 500.',
  ]) {
    await post(`${base}/chat`, { session_id: SESSION, message });
  }

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const page = await browser.newPage({ viewport: { width: 480, height: 860 } });
  await page.goto(`${base}/`);
  await page.evaluate((id) => localStorage.setItem('helpdesk.session-id', id), SESSION);
  await page.reload();
  await page.locator('.message.assistant[data-state="done"]').nth(1).waitFor();

  // Slow streamed answers, so the page is caught mid-answer.
  await post(`${emulator}/_emulator/latency`, { latencyMs: 0, chunkIntervalMs: 400 }, 'PUT');
  await page
    .locator('#message')
    .fill('Nothing works and nobody helps. I want to talk to a human manager now!');
  await page.locator('#message').press('Enter');
  const streaming = page.locator('.message.assistant[data-state="streaming"]');
  await streaming.locator('.ticket-id').waitFor();
  await page.waitForFunction(
    () =>
      (
        document.querySelector('.message.assistant[data-state="streaming"] .text')?.textContent ??
        ''
      ).split(' ').length > 8,
  );
  await page.screenshot({ path: `${repo}docs/chat-page.png` });
  await browser.close();
} finally {
  children.reverse().forEach((child) => child.kill('SIGTERM'));
}
