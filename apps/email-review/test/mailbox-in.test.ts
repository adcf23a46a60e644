import { listQuarantine } from '../src/mailbox/quarantine.js';
import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { dropSchema, freshSchema, until, type Mode } from './support/database.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { accessToken, Dovecot, MAIL_USER } from './support/dovecot.js';
import { startInstance, type Instance } from './support/harness.js';
import { allThreads, manyParts, plainMail, variedMail } from './support/mailbox-mail.js';

const LONG = 120_000;

/**
 * The mailbox reader against a real Dovecot: each test has its own server, schema and instance.
 * Flag mode (messages stay, \Seen) runs in memory mode; folder mode (moved to Processed) in
 * PostgreSQL mode, where the reader's place is in the database.
 */
describe('the mailbox reader', () => {
  let emulator: Emulator;
  let dovecot: Dovecot;
  let instance: Instance | undefined;
  const schemas: string[] = [];

  beforeAll(async () => {
    emulator = await startEmulator();
  });
  beforeEach(async () => {
    dovecot = await Dovecot.start();
  });
  afterEach(async () => {
    await instance?.close();
    instance = undefined;
    await dovecot.stop();
  });
  afterAll(async () => {
    await emulator.close();
    for (const schema of schemas) await dropSchema(schema);
  });

  async function start(mode: Mode, settings = dovecot.settings()) {
    const schema = freshSchema('mailbox');
    schemas.push(schema);
    instance = await startInstance({ mode, emulator, schema, mailbox: settings });
    return instance;
  }

  test.each([
    ['memory', 'flag'],
    ['postgres', 'folder'],
  ] as const)(
    'when 20 varied messages are in INBOX (%s, %s mode), then each becomes one thread with its fields, by the mailbox, and is then marked done',
    async (mode, marking) => {
      const cases = Array.from({ length: 20 }, (_, index) => variedMail(index));
      await dovecot.with(async (client) => {
        for (const mail of cases) await client.append('INBOX', mail.raw);
      });
      const service = await start(
        mode,
        dovecot.settings(marking === 'folder' ? { processed: 'Processed' } : {}),
      );
      const url = await service.listen();
      await until(async () => (await allThreads(url)).length >= 20, '20 threads', 60_000);

      const threads = await allThreads(url);
      expect(threads).toHaveLength(20);
      for (const mail of cases) {
        const thread = threads.find((t) => t.email.message_id === mail.messageId);
        expect(thread).toBeDefined();
        expect(thread!.email.from).toBe(mail.from);
        expect(thread!.email.subject).toBe(mail.subject);
        expect(thread!.inbound).toContain(mail.text);
        expect(thread!.email.attachments).toEqual(mail.attachments ?? []);
      }
      const history = await request(service.app).get(`/threads/${threads[0]!.thread_id}/history`);
      expect(history.body.events[0]).toMatchObject({
        type: 'created',
        actor: 'mailbox',
        source: 'mime',
      });

      if (marking === 'flag') {
        await until(
          async () => (await dovecot.messages('INBOX')).every((m) => m.flags.includes('\\Seen')),
          'every message \\Seen',
        );
        expect(await dovecot.messages('INBOX')).toHaveLength(20);
      } else {
        await until(async () => (await dovecot.messages('INBOX')).length === 0, 'INBOX empty');
        const processed = await dovecot.messages('Processed');
        expect(processed.map((m) => m.messageId).sort()).toEqual(
          cases.map((c) => c.messageId).sort(),
        );
      }
    },
    LONG,
  );

  test(
    'when 200 messages arrive in a burst while the service runs, then there are 200 threads, none twice',
    async () => {
      const service = await start('postgres', dovecot.settings({ processed: 'Processed' }));
      const url = await service.listen();
      await until(() => service.mailbox.status.state === 'connected', 'the reader connected');
      const burst = Array.from({ length: 200 }, (_, index) => plainMail(`burst-${index}`));
      await dovecot.with(async (client) => {
        for (const mail of burst) await client.append('INBOX', mail.raw);
      });
      await until(
        async () => (await dovecot.messages('INBOX')).length === 0,
        'INBOX empty',
        100_000,
      );

      const threads = await allThreads(url);
      const ids = threads.map((t) => t.email.message_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(burst.map((m) => m.messageId).sort());
    },
    LONG,
  );

  test(
    'when the mailbox takes OAuth2 (XOAUTH2) from a token file, then a refused token keeps the reader retrying and a fresh one in the file lets it read',
    async () => {
      const tokenFile = join(dovecot.dir, 'access-token');
      writeFileSync(tokenFile, await accessToken(MAIL_USER, new Uint8Array(32)));
      const mail = plainMail('oauth2');
      await dovecot.append(mail.raw);
      const settings = dovecot.settings();
      const service = await start('memory', {
        ...settings,
        imap: {
          ...settings.imap,
          url: `imap://${MAIL_USER}@127.0.0.1:${dovecot.port}/INBOX`,
          xoauth2TokenFile: tokenFile,
        },
      });
      await until(() => service.mailbox.status.state === 'disconnected', 'the token refused');
      // Dovecot's login process logs the refusal as the connection closes, a moment after the reader sees it.
      await until(
        () => /auth failed|Authentication failure|invalid/i.test(dovecot.log()),
        'Dovecot logged the refused login',
      );

      writeFileSync(tokenFile, await accessToken());
      const url = await service.listen();
      await until(async () => (await allThreads(url)).length === 1, 'the thread', 30_000);
      expect((await allThreads(url))[0]!.email.message_id).toBe(mail.messageId);
      await until(
        () => dovecot.log().includes('method=XOAUTH2'),
        'Dovecot logged the XOAUTH2 login',
      );
    },
    LONG,
  );

  test(
    'when the model hangs, then the reader has at most 8 drafts running and takes the rest of a backlog once they end',
    async () => {
      emulator.faults.add({ provider: 'openai', kind: 'hang', count: 1000 });
      const backlog = Array.from({ length: 20 }, (_, index) => plainMail(`backlog-${index}`));
      await dovecot.with(async (client) => {
        for (const mail of backlog) await client.append('INBOX', mail.raw);
      });
      const service = await start('postgres', dovecot.settings({ processed: 'Processed' }));
      const url = await service.listen();
      // The eighth is counted once its message is moved too, a moment after its thread shows.
      await until(
        async () => (await allThreads(url)).length === 8 && service.mailbox.status.read === 8,
        '8 threads drafting, their messages taken',
      );
      // Three more poll rounds change nothing while the 8 drafts hang.
      const polled = service.mailbox.status.read;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(service.mailbox.status.read).toBe(polled);
      expect(await allThreads(url)).toHaveLength(8);
      expect(await dovecot.messages('INBOX')).toHaveLength(12);

      emulator.faults.clear();
      await until(async () => (await allThreads(url)).length === 20, 'the whole backlog', 90_000);
      const ids = (await allThreads(url)).map((t) => t.email.message_id).sort();
      expect(ids).toEqual(backlog.map((m) => m.messageId).sort());
    },
    LONG,
  );

  test(
    'when the mailbox is recreated with the same messages (a new UIDVALIDITY), then no thread is made twice',
    async () => {
      const mails = Array.from({ length: 5 }, (_, index) => plainMail(`again-${index}`));
      await dovecot.with(async (client) => {
        await client.mailboxCreate('Support');
        for (const mail of mails) await client.append('Support', mail.raw);
      });
      const service = await start('postgres', dovecot.settings({ mailbox: 'Support' }));
      const url = await service.listen();
      await until(async () => (await allThreads(url)).length === 5, '5 threads');
      const uidValidity = () =>
        dovecot.with(async (client) => {
          const status = await client.status('Support', { uidValidity: true });
          return status && status.uidValidity;
        });
      const before = await uidValidity();

      await service.close();
      await dovecot.with(async (client) => {
        await client.mailboxDelete('Support');
        await client.mailboxCreate('Support');
        for (const mail of [...mails, plainMail('after-recreate')].map((m) => m.raw))
          await client.append('Support', mail);
      });
      expect(await uidValidity()).not.toBe(before);
      instance = await startInstance({
        mode: 'postgres',
        emulator,
        schema: schemas.at(-1)!,
        mailbox: dovecot.settings({ mailbox: 'Support' }),
      });
      const url2 = await instance.listen();
      await until(
        async () => (await dovecot.messages('Support')).every((m) => m.flags.includes('\\Seen')),
        'the re-read done',
      );
      const threads = await allThreads(url2);
      expect(threads).toHaveLength(6);
      expect(new Set(threads.map((t) => t.email.message_id)).size).toBe(6);
    },
    LONG,
  );

  test(
    'when a message is broken and another oversized, then both are in the quarantine folder and in GET /mailbox/quarantine, nothing deleted; ten listings at once share one IMAP login',
    async () => {
      const good = plainMail('good');
      const broken =
        'From: x@customer.example\r\nSubject: broken\r\nMessage-ID: <broken-1@customer.example>\r\nContent-Type: multipart/mixed; boundary="never-closed"\r\n\r\n--never-closed\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n%%%%not base64%%%%\r\n';
      const oversized = `From: y@customer.example\r\nSubject: huge\r\nMessage-ID: <huge-1@customer.example>\r\n\r\n${'a'.repeat(80).concat('\r\n').repeat(14_000)}`;
      await dovecot.with(async (client) => {
        for (const raw of [broken, good.raw, oversized]) await client.append('INBOX', raw);
      });
      const service = await start('postgres', dovecot.settings({ processed: 'Processed' }));
      const url = await service.listen();
      await until(async () => (await dovecot.messages('INBOX')).length === 0, 'INBOX empty');

      const quarantined = await dovecot.messages('Quarantine');
      expect(quarantined.map((m) => m.messageId).sort()).toEqual([
        '<broken-1@customer.example>',
        '<huge-1@customer.example>',
      ]);
      expect((await dovecot.messages('Processed')).map((m) => m.messageId)).toEqual([
        good.messageId,
      ]);
      expect((await allThreads(url)).map((t) => t.email.message_id)).toEqual([good.messageId]);

      const listed = await request(service.app).get('/mailbox/quarantine').expect(200);
      expect(listed.body.folder).toBe('Quarantine');
      expect(listed.body.total).toBe(2);
      expect(
        listed.body.messages
          .map((m: { message_id: string; reason: string }) => [m.message_id, m.reason])
          .sort(),
      ).toEqual([
        ['<broken-1@customer.example>', 'unreadable'],
        ['<huge-1@customer.example>', 'oversized'],
      ]);
      const ready = await request(service.app).get('/readyz').expect(200);
      expect(ready.body.mailbox).toBe('connected');
      // A listing reads the newest messages only (500 by default): here the newest one.
      const newest = await listQuarantine(dovecot.settings().imap, 'Quarantine', 1);
      expect([newest.total, newest.messages.map((m) => m.message_id)]).toEqual([
        2,
        [quarantined.at(-1)!.messageId],
      ]);

      // Ten at once share one listing: one IMAP login, not ten.
      const logins = () =>
        dovecot
          .log()
          .split('\n')
          .filter((l) => l.includes('Login: ')).length;
      // The test's own IMAP reads above log their logins too: start from a settled log.
      let before = -1;
      await until(async () => {
        const seen = logins();
        await new Promise((resolve) => setTimeout(resolve, 500));
        before = logins();
        return before === seen;
      }, 'a settled log');
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => request(service.app).get('/mailbox/quarantine')),
      );
      expect(answers.map((a) => [a.status, a.body.messages.length])).toEqual(
        Array.from({ length: 10 }, () => [200, 2]),
      );
      await until(() => logins() > before, 'the listing logged in');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(logins()).toBe(before + 1);
    },
    LONG,
  );
  test(
    'when a message has more than 1,000 MIME parts, then it is quarantined as unreadable and the mailbox goes on',
    async () => {
      const crowded = manyParts(1_001, '<crowded-1@customer.example>');
      const good = plainMail('after-crowded');
      await dovecot.with(async (client) => {
        for (const raw of [crowded, good.raw]) await client.append('INBOX', raw);
      });
      const service = await start('memory', dovecot.settings({ processed: 'Processed' }));
      const url = await service.listen();
      await until(async () => (await dovecot.messages('INBOX')).length === 0, 'INBOX empty');

      expect((await dovecot.messages('Quarantine')).map((m) => m.messageId)).toEqual([
        '<crowded-1@customer.example>',
      ]);
      expect((await allThreads(url)).map((t) => t.email.message_id)).toEqual([good.messageId]);
    },
    LONG,
  );
});
