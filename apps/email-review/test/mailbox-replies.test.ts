import { startEmulator, type Emulator } from '@repo/llm-emulator';
import request from 'supertest';
import { createSmtpTransport } from '../src/delivery/smtp-transport.js';
import { dropSchema, freshSchema, postgresTestsEnabled, until } from './support/database.js';
import { Dovecot } from './support/dovecot.js';
import { startInstance, type Instance } from './support/harness.js';
import { allThreads } from './support/mailbox-mail.js';
import { SmtpSink } from './support/smtp-sink.js';
import type { Thread } from '../src/threads/thread.js';

const withPostgres = await postgresTestsEnabled();
const describePg = withPostgres ? describe : describe.skip;
const LONG = 90_000;
const MAIL_FROM = 'Support <support@shop.example>';

const FIRST = `From: Ann Customer <ann@customer.example>\r\nTo: support@shop.example\r\nSubject: Charged twice\r\nMessage-ID: <first-1@customer.example>\r\n\r\nI was charged twice for order 5521. Please refund one payment.\r\n`;

/** The customer's answer to our reply, as a mail client writes it. */
const answer = (replyId: string) =>
  `From: Ann Customer <ann@customer.example>\r\nTo: support@shop.example\r\nSubject: Re: Charged twice\r\nMessage-ID: <answer-1@customer.example>\r\nIn-Reply-To: ${replyId}\r\nReferences: <first-1@customer.example> ${replyId}\r\n\r\nThanks, but the refund has not arrived yet.\r\n`;

interface ChatRequest {
  messages: { role: string; content: string }[];
  response_format?: unknown;
}

describePg('replies through the mailbox (PostgreSQL, real Dovecot and SMTP)', () => {
  let emulator: Emulator;
  let dovecot: Dovecot;
  let sink: SmtpSink;
  let instance: Instance;
  const schema = freshSchema('mailreply');

  beforeAll(async () => {
    emulator = await startEmulator();
    dovecot = await Dovecot.start();
    sink = await SmtpSink.start();
    instance = await startInstance({
      mode: 'postgres',
      emulator,
      schema,
      mailTransport: createSmtpTransport({ url: sink.url, timeoutMs: 2_000 }),
      mailFrom: MAIL_FROM,
      mailbox: dovecot.settings({ processed: 'Processed' }),
      metrics: { public: true },
    });
  });
  afterAll(async () => {
    await instance?.close();
    await sink?.stop();
    await dovecot?.stop();
    await emulator?.close();
    await dropSchema(schema);
  });

  /** A customer's first message, `<first-n@…>`, put in INBOX; its thread once drafted. */
  async function mailedAndDrafted(n: number): Promise<Thread> {
    const url = await instance.listen();
    const messageId = `<first-${n}@customer.example>`;
    await dovecot.append(FIRST.replace('<first-1@', `<first-${n}@`));
    let thread: Thread | undefined;
    await until(
      async () => {
        thread = (await allThreads(url)).find(
          (t) => t.email.message_id === messageId && t.status === 'awaiting_review',
        );
        return Boolean(thread);
      },
      'the thread drafted',
      30_000,
    );
    return thread!;
  }

  /** Approves the thread, waits for its delivery, and returns the reply's Message-ID. */
  async function approvedAndDelivered(threadId: string): Promise<string> {
    const approved = await request(instance.app).post(`/threads/${threadId}/approve`).expect(200);
    await until(
      async () =>
        (await request(instance.app).get(`/threads/${threadId}`)).body.delivery.status ===
        'delivered',
      'delivered',
    );
    return approved.body.delivery.message_id as string;
  }

  test(
    'when a thread read from the mailbox is approved, then the reply reaches the SMTP server and the Sent folder; the customer’s answer opens a linked thread whose draft request carried the earlier exchange',
    async () => {
      const url = await instance.listen();
      await dovecot.append(FIRST);
      let first: Thread | undefined;
      await until(
        async () => {
          first = (await allThreads(url)).find((t) => t.status === 'awaiting_review');
          return Boolean(first);
        },
        'the first thread drafted',
        30_000,
      );

      const approved = await request(instance.app)
        .post(`/threads/${first!.thread_id}/approve`)
        .expect(200);
      const replyId = approved.body.delivery.message_id as string;
      await until(() => sink.byMessageId(replyId).length === 1, 'the reply at the SMTP server');
      await until(
        async () => (await dovecot.messages('Sent')).some((m) => m.messageId === replyId),
        'the reply in Sent',
      );
      const sent = await dovecot.messages('Sent');
      expect(sent.filter((m) => m.messageId === replyId)).toHaveLength(1);
      expect(sent.find((m) => m.messageId === replyId)!.flags).toContain('\\Seen');
      const sentText = (await request(instance.app).get(`/threads/${first!.thread_id}`)).body
        .draft as string;

      emulator.requests.clear();
      await dovecot.append(answer(replyId));
      let followUp: Thread | undefined;
      await until(
        async () => {
          followUp = (await allThreads(url)).find(
            (t) =>
              t.email.message_id === '<answer-1@customer.example>' &&
              t.status === 'awaiting_review',
          );
          return Boolean(followUp);
        },
        'the follow-up drafted',
        30_000,
      );

      expect(followUp!.previous_thread_id).toBe(first!.thread_id);
      expect(first!.previous_thread_id).toBeUndefined();
      const draftRequest = emulator.requests
        .list()
        .map((r) => r.body as ChatRequest)
        .find((body) => !body.response_format);
      expect(draftRequest).toBeDefined();
      const turns = draftRequest!.messages.map((m) => [m.role, m.content]);
      expect(turns[1]).toEqual([
        'user',
        expect.stringContaining('I was charged twice for order 5521'),
      ]);
      expect(turns[2]).toEqual(['assistant', sentText]);
      expect(turns[3]).toEqual(['user', expect.stringContaining('the refund has not arrived yet')]);

      // The reader counts a message once it is moved to Processed, and clears its lag once the
      // message is marked done: both may end after the message's draft.
      const scrape = async () => (await request(instance.app).get('/metrics').expect(200)).text;
      await until(async () => {
        const text = await scrape();
        return (
          text.includes('email_review_mailbox_messages_total{outcome="thread"} 2') &&
          /^email_review_mailbox_lag_seconds 0$/m.test(text)
        );
      }, 'the follow-up counted and its lag cleared');
      const metrics = await scrape();
      expect(metrics).toContain('email_review_mailbox_messages_total{outcome="thread"} 2');
      expect(metrics).toContain('email_review_mailbox_sent_copies_total{outcome="filed"} 1');
      expect(metrics).toContain('email_review_mailbox_connected 1');
      expect(metrics).toMatch(/^email_review_mailbox_lag_seconds 0$/m);
    },
    LONG,
  );

  test(
    'when the IMAP server is down as a reply is delivered, then SMTP delivery still succeeds once and the missing Sent copy is counted, not retried',
    async () => {
      const thread = await mailedAndDrafted(2);
      await dovecot.pause();
      try {
        const replyId = await approvedAndDelivered(thread.thread_id);
        await until(
          async () =>
            (await request(instance.app).get('/metrics')).text.includes(
              'email_review_mailbox_sent_copies_total{outcome="failed"} 1',
            ),
          'the failed copy counted',
        );
        expect(sink.byMessageId(replyId)).toHaveLength(1);
      } finally {
        await dovecot.resume();
      }
    },
    LONG,
  );

  test(
    'when the IMAP server hangs as a reply is delivered, then the delivery is recorded without waiting for the Sent copy, which is counted failed after its timeout',
    async () => {
      const thread = await mailedAndDrafted(3);
      const failedCopies = async () =>
        Number(
          /email_review_mailbox_sent_copies_total\{outcome="failed"\} (\d+)/.exec(
            (await request(instance.app).get('/metrics')).text,
          )?.[1] ?? 0,
        );
      const failedBefore = await failedCopies();
      dovecot.freeze();
      try {
        const replyId = await approvedAndDelivered(thread.thread_id);
        // The copy still waits on the frozen server (5 s timeout): the delivery did not wait for it.
        expect(await failedCopies()).toBe(failedBefore);
        await until(
          async () => (await failedCopies()) === failedBefore + 1,
          'the copy counted failed',
        );
        expect(sink.byMessageId(replyId)).toHaveLength(1);
      } finally {
        dovecot.thaw();
      }
    },
    LONG,
  );
});
