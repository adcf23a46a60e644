import { startEmulator, type Emulator } from '@repo/llm-emulator';
import type { OutgoingMessage } from '../src/delivery/delivery.js';
import { createSmtpTransport } from '../src/delivery/smtp-transport.js';
import { connectImap, disconnectImap } from '../src/mailbox/imap-connection.js';
import { until } from './support/database.js';
import { Dovecot, MAIL_PASSWORD } from './support/dovecot.js';
import { getJson } from './support/mailbox-mail.js';
import { startServer, type ServerProcess } from './support/server-process.js';
import { SMTP_PASSWORD, SmtpSink } from './support/smtp-sink.js';

const REPLY: OutgoingMessage = {
  thread_id: 'tls-thread',
  message_id: '<tls-reply@shop.test>',
  to: 'ann@example.com',
  from: 'support@shop.test',
  subject: 'Re: Charged twice',
  in_reply_to: null,
  references: [],
  body: 'Refunded.',
};

/** What the Dovecot harness logged about logins: a password sent shows as a login or a failed one. */
const authAttempts = (dovecot: Dovecot) =>
  dovecot
    .log()
    .split('\n')
    .filter(
      (line) => /Login: |auth failed|Aborted login/.test(line) && !/no auth attempts/.test(line),
    );

describe('SMTP_URL with credentials over smtp://, to a server without STARTTLS', () => {
  let sink: SmtpSink;

  beforeEach(async () => {
    sink = await SmtpSink.start(undefined, { auth: true });
  });
  afterEach(async () => {
    await sink.stop();
  });

  test('when the operator has not opted out, then nothing is sent: the server sees no AUTH', async () => {
    const transport = createSmtpTransport({ url: sink.url, timeoutMs: 2_000 });

    await expect(transport.send(REPLY)).rejects.toMatchObject({
      code: 'ETLS',
      message: expect.stringMatching(/STARTTLS/),
    });

    transport.close();
    expect(sink.logins).toEqual([]);
    expect(sink.received).toEqual([]);
  });

  test('when the operator allows plaintext auth, then the reply is sent after AUTH', async () => {
    const transport = createSmtpTransport({
      url: sink.url,
      timeoutMs: 2_000,
      allowPlaintextAuth: true,
    });

    await transport.send(REPLY);

    transport.close();
    expect(sink.logins).toEqual([`mailer:${SMTP_PASSWORD}`]);
    expect(sink.byMessageId(REPLY.message_id)).toHaveLength(1);
  });
});

describe('IMAP_URL over imap://, to a server without STARTTLS', () => {
  let dovecot: Dovecot;
  let emulator: Emulator | undefined;
  let server: ServerProcess | undefined;

  beforeEach(async () => {
    dovecot = await Dovecot.start();
  });
  afterEach(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    server = undefined;
    await emulator?.close();
    emulator = undefined;
    await dovecot.stop();
  });

  test('when the operator has not opted out, then the connection is refused before any login', async () => {
    const connecting = connectImap({ url: dovecot.url(), timeoutMs: 5_000 });

    await expect(connecting).rejects.toThrow(/STARTTLS/);
    expect(authAttempts(dovecot)).toEqual([]);
  });

  test('when the operator allows plaintext auth, then the client logs in', async () => {
    const client = await connectImap({
      url: dovecot.url(),
      timeoutMs: 5_000,
      allowPlaintextAuth: true,
    });

    expect(client.authenticated).toBeTruthy();
    await disconnectImap(client);
    // The probe the refusals rely on sees a login when there is one.
    await until(() => authAttempts(dovecot).length > 0, 'Dovecot logged the login');
  });

  test('when the service runs with IMAP_URL alone, then the mailbox stays disconnected, the log says why and no password reaches the server; MAIL_ALLOW_PLAINTEXT_AUTH=true connects', async () => {
    emulator = await startEmulator();
    const env = {
      LLM_A_API_KEY: 'test-key',
      LLM_A_BASE_URL: `${emulator.url}/v1`,
      IMAP_URL: dovecot.url(),
      IMAP_TIMEOUT_MS: '5000',
      LOG_LEVEL: 'info',
    };
    const refused = await startServer(env);
    server = refused.process;
    await until(
      () =>
        server!
          .stdout()
          .split('\n')
          .some((line) => line.includes('mailbox unavailable') && line.includes('STARTTLS')),
      'the refusal',
    );
    const ready = (await getJson(`${refused.url}/readyz`)) as { mailbox: string };
    expect(ready.mailbox).not.toBe('connected');
    expect(authAttempts(dovecot)).toEqual([]);
    expect(server.stdout()).not.toContain(MAIL_PASSWORD);
    server.child.kill('SIGTERM');
    await server.exited;

    const allowed = await startServer({ ...env, MAIL_ALLOW_PLAINTEXT_AUTH: 'true' });
    server = allowed.process;

    await until(
      async () =>
        ((await getJson(`${allowed.url}/readyz`)) as { mailbox: string }).mailbox === 'connected',
      'the mailbox connected',
    );
  }, 60_000);
});
