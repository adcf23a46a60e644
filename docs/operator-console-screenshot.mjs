// Regenerates docs/operator-console.png: helpdesk's operator console against the emulator, with
// one conversation taken over (customer and operator messages) and another waiting.
//   npx -y pnpm@10.34.8 turbo run build --filter=helpdesk --filter=@repo/llm-emulator
//   node docs/operator-console-screenshot.mjs     # needs Chromium at /usr/bin/chromium (or CHROMIUM=...)
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';

const repo = fileURLToPath(new URL('..', import.meta.url));
// playwright-core is a devDependency of helpdesk (its browser test).
const { chromium } = createRequire(`${repo}apps/helpdesk/package.json`)('playwright-core');
const EMULATOR_PORT = 14721;
const APP_PORT = 14703;
const emulator = `http://127.0.0.1:${EMULATOR_PORT}`;
const base = `http://127.0.0.1:${APP_PORT}`;
const OPERATOR_TOKEN = 'screenshot-operator-token';

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

async function post(path, body, headers = {}) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

/** A customer of the public widget: a conversation of its own and its messages. */
async function customer(messages) {
  const session = await post('/widget/sessions', {});
  for (const message of messages) {
    await post(
      '/chat',
      { session_id: session.session_id, message },
      { 'x-widget-token': session.widget_token },
    );
  }
  return session;
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
    API_TOKENS: `alice:${OPERATOR_TOKEN}`,
    OPERATORS: 'alice',
    WIDGET_PUBLIC: 'true',
    LOG_LEVEL: 'warn',
  });
  await healthy(`${base}/healthz`);

  const held = await customer([
    'Is the dashboard down? I get error 500.',
    'It still fails for our whole team. I want to talk to a person.',
  ]);
  await customer(['Nothing works and nobody helps. I want to talk to a human manager now!']);
  const id = encodeURIComponent(held.session_id);
  await post(`/operator/conversations/${id}/takeover`, {}, operator);
  await post(
    `/operator/conversations/${id}/messages`,
    { text: 'Hello, this is Alice. I can see the errors on your account; let me check.' },
    operator,
  );
  await post(
    '/chat',
    { session_id: held.session_id, message: 'Thank you! It started around 9 this morning.' },
    { 'x-widget-token': held.widget_token },
  );

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const page = await browser.newPage({ viewport: { width: 1100, height: 950 } });
  await page.goto(`${base}/console/`);
  await page.locator('#token-input').fill(OPERATOR_TOKEN);
  await page.locator('#token-input').press('Enter');
  await page.locator('#live-status', { hasText: 'Live' }).waitFor();
  await page.locator('.queue-item').nth(1).waitFor();
  await page.locator(`.queue-item[data-session-id="${held.session_id}"] button`).click();
  await page.locator('.message.user', { hasText: '9 this morning' }).waitFor();
  await page
    .locator('#reply')
    .fill('Found it: a stale cache on our side. It is fixed now; please reload.');
  await page.screenshot({ path: `${repo}docs/operator-console.png` });
  await browser.close();
} finally {
  children.reverse().forEach((child) => child.kill('SIGTERM'));
}
