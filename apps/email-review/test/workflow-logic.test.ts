import { UNKNOWN_EMAIL } from '../src/email/thread-email.js';
import { decodeCursor, encodeCursor } from '../src/threads/cursor.js';
import { MemoryThreadStore } from '../src/threads/memory-thread-store.js';
import type { Thread } from '../src/threads/thread.js';
import { projectThread } from '../src/threads/thread-projection.js';
import { oneLineSummary } from '../src/workflow/classification.js';
import { classifyMessages, draftMessages } from '../src/workflow/prompts.js';

const classification = { category: 'billing', urgency: 'high', summary: 'Double charge.' } as const;

function thread(id: string, overrides: Partial<Thread> = {}): Thread {
  return {
    thread_id: id,
    status: 'awaiting_review',
    inbound: 'hello',
    email: UNKNOWN_EMAIL,
    classification: null,
    draft: null,
    revision: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    sent_at: null,
    error: null,
    delivery: null,
    ...overrides,
  };
}

describe('prompts', () => {
  test('when classifying, then the email is the only user message', () => {
    const messages = classifyMessages('Please refund me');
    expect(messages.filter((m) => m.role === 'user')).toEqual([
      { role: 'user', content: 'Please refund me' },
    ]);
  });

  test('when drafting the first time, then the classification goes to the system prompt and no redraft turn is added', () => {
    const messages = draftMessages({ inbound: 'Please refund me', classification });
    expect(messages).toHaveLength(2);
    expect(messages[0]!.content).toContain('category billing, urgency high');
    expect(messages[1]).toEqual({ role: 'user', content: 'Please refund me' });
  });

  test('when the sender and subject are known, then the email the model reads starts with its From and Subject lines', () => {
    const messages = draftMessages({
      inbound: 'Please refund me',
      subject: 'Refund',
      from: 'Dana Example <dana@example.com>',
      classification,
    });
    expect(messages[1]).toEqual({
      role: 'user',
      content: 'From: Dana Example <dana@example.com>\nSubject: Refund\n\nPlease refund me',
    });
  });

  test('when redrafting, then the current draft and the instructions follow the email', () => {
    const messages = draftMessages({
      inbound: 'Please refund me',
      classification,
      previousDraft: 'Old draft',
      instructions: 'Be warmer',
    });
    expect(messages.slice(2)).toEqual([
      { role: 'assistant', content: 'Old draft' },
      { role: 'user', content: expect.stringContaining('Be warmer') },
    ]);
  });
});

describe('classification summary', () => {
  test('when the model answers several lines, then the summary becomes one trimmed line', () => {
    expect(oneLineSummary('  Wants a refund.\nFor INV-1.  ')).toBe('Wants a refund. For INV-1.');
  });

  test('when the summary is very long, then it is cut to 200 characters', () => {
    const summary = oneLineSummary('word '.repeat(100));
    expect(summary).toHaveLength(200);
    expect(summary.endsWith('…')).toBe(true);
  });
});

describe('projectThread', () => {
  const base = thread('t1', { status: 'drafting' });

  test('when the run paused with a draft, then the thread awaits review', () => {
    const next = projectThread(
      base,
      { classification, reply: 'Draft', revision: 1 },
      '2026-01-02T00:00:00.000Z',
    );
    expect(next).toMatchObject({
      status: 'awaiting_review',
      draft: 'Draft',
      revision: 1,
      classification,
      error: null,
    });
    expect(next.updated_at).toBe('2026-01-02T00:00:00.000Z');
  });

  test('when send has run, then the thread is sent with the sent text and time', () => {
    const next = projectThread(
      base,
      { reply: 'Draft', revision: 1, sent: { at: '2026-01-03T00:00:00.000Z', text: 'Draft' } },
      '2026-01-03T00:00:00.000Z',
    );
    expect(next).toMatchObject({
      status: 'sent',
      sent_at: '2026-01-03T00:00:00.000Z',
      draft: 'Draft',
    });
  });

  test('when a rejection is recorded, then the thread is rejected', () => {
    expect(projectThread(base, { reply: 'x', rejected_at: 'now' }, 'now').status).toBe('rejected');
  });
});

describe('list cursors', () => {
  test('when a cursor is encoded, then it decodes to the same position', () => {
    expect(decodeCursor(encodeCursor(42))).toBe(42);
  });

  test.each([
    '',
    'garbage',
    Buffer.from('v1:-3').toString('base64url'),
    Buffer.from('v1:0').toString('base64url'),
  ])('when the cursor %j was not issued by the service, then it is refused', (cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe('MemoryThreadStore listing', () => {
  test('when pages are walked with their cursors, then every matching thread appears once, newest first', async () => {
    const store = new MemoryThreadStore();
    for (let i = 1; i <= 7; i += 1)
      await store.create(undefined, {
        thread: thread(`t${i}`, { status: i % 2 ? 'awaiting_review' : 'sent' }),
        events: [],
      });

    const seen: string[] = [];
    let before: number | undefined;
    do {
      const page = await store.list({
        status: 'awaiting_review',
        limit: 2,
        before,
      });
      seen.push(...page.threads.map((t) => t.thread_id));
      before = page.next;
    } while (before !== undefined);

    expect(seen).toEqual(['t7', 't5', 't3', 't1']);
  });

  test('when an idempotency key repeats, then the first thread is returned and nothing is added', async () => {
    const store = new MemoryThreadStore();
    await store.create(undefined, { thread: thread('a'), idempotencyKey: 'k', events: [] });
    const again = await store.create(undefined, {
      thread: thread('b'),
      idempotencyKey: 'k',
      events: [],
    });
    expect(again).toEqual({ thread: thread('a'), created: false });
    expect((await store.list({ limit: 10 })).threads.map((t) => t.thread_id)).toEqual(['a']);
  });
});
