import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mailLine, modeLine, readyBanner, storageLine } from '../src/banner.js';
import { repoRoot } from './support/repo.js';
import { planServices } from '../src/service-plan.js';
import { loadDemoEnv } from '../src/env.js';
import type { Terminal } from '../src/terminal.js';

const plain: Terminal = { out: () => undefined, err: () => undefined, paint: (text) => text };

describe('storageLine', () => {
  test('when DATABASE_URL is set, then it says postgres and hides the password', () => {
    const line = storageLine('postgres://app:s3cret@db.internal:5432/mail');
    expect(line).toMatch(/^email-review storage: postgres /);
    expect(line).not.toContain('s3cret');
  });

  test('when DATABASE_URL is not set, then it says memory', () => {
    expect(storageLine(undefined)).toMatch(/^email-review storage: memory /);
  });

  test('when pnpm start runs (real providers), then it speaks of the services, not of a demo', () => {
    expect(storageLine(undefined, 'real')).toContain('threads are lost when the services stop');
    expect(storageLine(undefined, 'real')).not.toContain('demo');
  });
});

describe('the runner says what it is', () => {
  test('when the emulator stands in, then the banner says its replies are canned and keyword-based, no measure of quality', () => {
    expect(modeLine('emulator', 'http://127.0.0.1:4010')).toContain(
      "canned, keyword-based replies: they show the flow, not a measure of any model's quality",
    );
  });

  test('when pnpm start runs without SMTP_URL, then the mail line says replies only reach the log, as .env.example does', () => {
    const env = readFileSync(join(repoRoot, '.env.example'), 'utf8');
    expect(env).toMatch(/Unset: replies only reach the log/);
    expect(mailLine({})).toContain('SMTP_URL is not set, so approved replies are not sent');
    expect(mailLine({ smtpUrl: 'smtp://u:s3cret@mail.example:587' })).not.toContain('s3cret');
  });
});

describe('readyBanner', () => {
  const services = planServices({
    mode: 'emulator',
    repoRoot: '/repo',
    env: loadDemoEnv({}),
    inherited: {},
  });
  const banner = (input: { withToken: boolean }) =>
    readyBanner({ terminal: plain, services, mode: 'emulator', databaseUrl: undefined, ...input });

  test('when no token is required, then the curl lines send none', () => {
    const text = banner({ withToken: false });
    const commands = text.split('\n').filter((line) => /^(THREAD=|curl )/.test(line));
    expect(commands).toHaveLength(12);
    expect(text).not.toContain('authorization');
    expect(
      commands.slice(1, 5).every((line) => line.includes('http://127.0.0.1:3001/threads/$THREAD')),
    ).toBe(true);
  });

  test('when API_TOKEN is set, then every curl line sends it from the shell, never its value', () => {
    const text = banner({ withToken: true });
    const curls = text.split('\n').filter((line) => line.includes('curl '));
    expect(curls.every((line) => line.includes('-H "authorization: Bearer $API_TOKEN"'))).toBe(
      true,
    );
  });

  test('when the demo runs a mail catcher, then the banner says where mail goes and the flow ends by reading the reply', () => {
    const text = readyBanner({
      terminal: plain,
      services,
      mode: 'emulator',
      databaseUrl: undefined,
      withToken: false,
      mailDir: '/repo/.demo-mail',
    });
    const commands = text.split('\n').filter((line) => /^(THREAD=|curl )/.test(line));

    expect(text).toContain(
      'Delivered mail: approved replies are written as .eml files to /repo/.demo-mail',
    );
    expect(commands).toHaveLength(13);
    expect(commands[5]).toContain('file:///repo/.demo-mail/reply-$THREAD@demo.test.eml');
  });

  test('when ready, then the steps leave a thread waiting, list what waits, read the chat session back and call A2A', () => {
    const commands = banner({ withToken: false })
      .split('\n')
      .filter((line) => /^(THREAD=|curl )/.test(line));
    expect(commands[5]).toContain('-X POST http://127.0.0.1:3001/threads ');
    expect(commands[6]).toContain('"http://127.0.0.1:3001/threads?status=awaiting_review"');
    expect(commands[10]).toContain('http://127.0.0.1:3002/sessions/demo-session');
    expect(commands[11]).toContain('-X POST http://127.0.0.1:3002/a2a ');
    expect(commands[11]).toContain('"method":"message/send"');
  });

  test('when ready, then the banner points to the review inbox at / of email-review', () => {
    const text = banner({ withToken: false });
    expect(text).toMatch(/^Review inbox: open http:\/\/127\.0\.0\.1:3001\/ in a browser/m);
  });

  test('when ready, then the banner points to the customer chat at / of helpdesk and its embed', () => {
    const text = banner({ withToken: false });
    expect(text).toMatch(/^Customer chat: open http:\/\/127\.0\.0\.1:3002\/ in a browser/m);
    expect(text).toContain('<script src="http://127.0.0.1:3002/widget.js" defer></script>');
  });
});
