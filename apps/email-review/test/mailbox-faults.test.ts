import { startEmulator, type Emulator } from '@repo/llm-emulator';
import pg from 'pg';
import request from 'supertest';
import {
  dropSchema,
  freshSchema,
  postgresTestsEnabled,
  TEST_DATABASE_URL,
  until,
} from './support/database.js';
import { Dovecot, MAIL_PASSWORD } from './support/dovecot.js';
import { startInstance, type Instance } from './support/harness.js';
import { allThreads, getJson, plainMail } from './support/mailbox-mail.js';
import { startServer, type ServerProcess } from './support/server-process.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;
const LONG = 150_000;

/** The service as users run it, reading `dovecot`'s INBOX into `schema`. */
function serviceEnv(emulator: Emulator, dovecot: Dovecot, schema: string, extra = {}) {
  return {
    LLM_A_API_KEY: 'test-key',
    LLM_A_BASE_URL: `${emulator.url}/v1`,
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: schema,
    IMAP_URL: dovecot.url(),
    // The test server offers no STARTTLS.
    MAIL_ALLOW_PLAINTEXT_AUTH: 'true',
    IMAP_PROCESSED_FOLDER: 'Processed',
    IMAP_POLL_MS: '1000',
    IMAP_TIMEOUT_MS: '5000',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

async function stop(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

/** Threads per Message-ID, straight from the index. */
async function threadCounts(schema: string): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const rows = await client.query<{ message_id: string; n: string }>(
      `SELECT view->'email'->>'message_id' AS message_id, count(*) AS n
       FROM "${schema}".email_threads GROUP BY 1`,
    );
    return new Map(rows.rows.map((row) => [row.message_id, Number(row.n)]));
  } finally {
    await client.end();
  }
}

const readyz = async (url: string) =>
  ((await getJson(`${url}/readyz`)) as { mailbox: string }).mailbox;

describePg('the mailbox reader through faults (PostgreSQL)', () => {
  let emulator: Emulator;
  let dovecot: Dovecot;
  const servers: ServerProcess[] = [];
  const instances: Instance[] = [];
  const schemas: string[] = [];

  beforeAll(async () => {
    emulator = await startEmulator();
  });
  beforeEach(async () => {
    dovecot = await Dovecot.start();
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await stop(server);
    for (const instance of instances.splice(0)) await instance.close();
    await dovecot.stop();
  });
  afterAll(async () => {
    await emulator?.close();
    for (const schema of schemas) await dropSchema(schema);
  });

  function schemaFor(label: string) {
    const schema = freshSchema(label);
    schemas.push(schema);
    return schema;
  }

  test(
    'when the IMAP server is stopped for 10 s while mail arrives, then every message is read once afterwards, and the other routes keep answering meanwhile',
    async () => {
      const schema = schemaFor('imapdown');
      const instance = await startInstance({
        mode: 'postgres',
        emulator,
        schema,
        mailbox: dovecot.settings({ processed: 'Processed' }),
      });
      instances.push(instance);
      const url = await instance.listen();
      const before = [plainMail('before-1'), plainMail('before-2')];
      for (const mail of before) await dovecot.append(mail.raw);
      await until(async () => (await allThreads(url)).length === 2, 'the first two threads');

      await dovecot.pause();
      const during = Array.from({ length: 5 }, (_, i) => plainMail(`during-${i}`));
      const stoppedAt = Date.now();
      for (const mail of during) dovecot.deliver(mail.raw);
      await until(
        () => instance.mailbox.status.state === 'disconnected',
        'the reader sees the outage',
      );
      // The rest of the service answers while the mailbox is away.
      expect((await request(instance.app).get('/threads').expect(200)).body.items).toHaveLength(2);
      const posted = await request(instance.app)
        .post('/threads')
        .set('Prefer', 'respond-async')
        .send({ inbound: 'Posted while the mailbox is down.', subject: 'By API' })
        .expect(202);
      expect((await request(instance.app).get('/readyz').expect(200)).body.mailbox).toBe(
        'disconnected',
      );
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, 10_000 - (Date.now() - stoppedAt))),
      );
      await dovecot.resume();
      const after = plainMail('after-1');
      await dovecot.append(after.raw);

      const expected = [...before, ...during, after].map((m) => m.messageId);
      await until(
        async () => (await allThreads(url)).length === expected.length + 1,
        'all threads',
        90_000,
      );
      const counts = await threadCounts(schema);
      for (const id of expected) expect(counts.get(id)).toBe(1);
      expect((await allThreads(url)).some((t) => t.thread_id === posted.body.thread_id)).toBe(true);
      await until(async () => (await dovecot.messages('INBOX')).length === 0, 'INBOX empty');
      expect(instance.mailbox.status.state).toBe('connected');
    },
    LONG,
  );

  test(
    'when the service is SIGKILLed after a thread was committed but before its message was done, then after a restart there is exactly one thread for it',
    async () => {
      const schema = schemaFor('imapkill');
      const mail = plainMail('killed-midway');
      const first = await startServer(serviceEnv(emulator, dovecot, schema));
      servers.push(first.process);
      await until(async () => (await readyz(first.url)) === 'connected', 'the reader connected');
      // The move into Processed is refused: the thread is committed, the message stays unfinished.
      dovecot.refuseWritesTo('Processed');
      await dovecot.append(mail.raw);
      await until(
        async () => (await threadCounts(schema)).get(mail.messageId) === 1,
        'its thread',
        30_000,
      );
      await until(
        () => first.process.stdout().includes('the IMAP server refused to move message'),
        'the refused move',
      );
      expect((await dovecot.messages('INBOX')).map((m) => m.messageId)).toEqual([mail.messageId]);

      first.process.child.kill('SIGKILL');
      await first.process.exited;
      dovecot.refuseWritesTo('Processed', false);
      const second = await startServer(serviceEnv(emulator, dovecot, schema));
      servers.push(second.process);
      await until(
        async () => (await dovecot.messages('INBOX')).length === 0,
        'the message done',
        30_000,
      );

      expect((await threadCounts(schema)).get(mail.messageId)).toBe(1);
      expect((await dovecot.messages('Processed')).map((m) => m.messageId)).toEqual([
        mail.messageId,
      ]);
      expect(second.process.stdout()).toContain('"created":false');
    },
    LONG,
  );

  test(
    'when two instances share one database, then each message becomes one thread; when the reader is killed, the other reads new mail within 30 s',
    async () => {
      const schema = schemaFor('imaptwo');
      const a = await startServer(serviceEnv(emulator, dovecot, schema));
      servers.push(a.process);
      const b = await startServer(serviceEnv(emulator, dovecot, schema));
      servers.push(b.process);
      await until(
        async () => {
          const states = [await readyz(a.url), await readyz(b.url)].sort();
          return states[0] === 'connected' && states[1] === 'standby';
        },
        'one reader, one standby',
        30_000,
      );
      const reader = (await readyz(a.url)) === 'connected' ? a : b;
      const other = reader === a ? b : a;
      expect(reader.process.stdout()).toContain('mailbox=imap');
      // IMAP_URL is a secret: neither its password nor the URL reaches the log.
      for (const server of [a, b]) {
        expect(server.process.stdout()).not.toContain(MAIL_PASSWORD);
        expect(server.process.stdout()).not.toContain(dovecot.url());
      }

      const firstBatch = Array.from({ length: 20 }, (_, i) => plainMail(`two-${i}`));
      await dovecot.with(async (client) => {
        for (const mail of firstBatch) await client.append('INBOX', mail.raw);
      });
      await until(
        async () => (await dovecot.messages('INBOX')).length === 0,
        'first batch read',
        60_000,
      );

      reader.process.child.kill('SIGKILL');
      await reader.process.exited;
      const killedAt = Date.now();
      const secondBatch = Array.from({ length: 5 }, (_, i) => plainMail(`takeover-${i}`));
      await dovecot.with(async (client) => {
        for (const mail of secondBatch) await client.append('INBOX', mail.raw);
      });
      await until(
        async () => {
          const counts = await threadCounts(schema);
          return secondBatch.every((mail) => counts.get(mail.messageId) === 1);
        },
        'the other instance reads the new mail',
        30_000,
      );
      expect(Date.now() - killedAt).toBeLessThan(30_000);
      expect(await readyz(other.url)).toBe('connected');

      const counts = await threadCounts(schema);
      for (const mail of [...firstBatch, ...secondBatch])
        expect(counts.get(mail.messageId)).toBe(1);
      expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(25);
    },
    LONG,
  );
});
