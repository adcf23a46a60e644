import {
  callerOf,
  INVOICE_QUESTION,
  OUTAGE_QUESTION,
  startHelpdesk,
  textsIn,
  waitFor,
  type HelpdeskUnderTest,
  undocumentedResponsesSoFar,
} from './support/harness.js';

const INVOICES = ['INV-1001', 'INV-1002', 'INV-1003', 'INV-1004', 'INV-1005'];

// The document cannot drift: every answer this suite saw is documented for its route.
afterAll(async () => {
  expect(await undocumentedResponsesSoFar()).toEqual([]);
});

describe('concurrency', () => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    // A little model latency gives concurrent turns every chance to interleave if they could.
    helpdesk = await startHelpdesk({ latencyMs: 5 });
  });
  afterAll(() => helpdesk.close());

  it('when 10 messages hit one session at once, then they are answered one after another and the history is in order', async () => {
    helpdesk.emulator.requests.clear();
    const messages = Array.from(
      { length: 10 },
      (_, i) => `Please check invoice ${INVOICES[i % 5]} (question ${i + 1})`,
    );

    const responses = await Promise.all(messages.map((m) => helpdesk.send('one-session', m)));

    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(responses.every((r) => r.body.agent === 'billing')).toBe(true);
    // Serialized: the model calls come in whole turns of three, never mixed with another turn's.
    const calls = helpdesk.modelCalls();
    expect(calls).toHaveLength(30);
    for (let turn = 0; turn < 10; turn += 1) {
      const [first, second, third] = calls.slice(turn * 3, turn * 3 + 3);
      expect([first, second, third].map((c) => callerOf(c!))).toEqual([
        'coordinator',
        'billing',
        'billing',
      ]);
      // The newest message in each of the turn's prompts is this turn's own.
      const question = /question (\d+)/g;
      const latest = (call: NonNullable<typeof first>) =>
        [...textsIn(call).matchAll(question)].at(-1)?.[1];
      const own = latest(first!);
      expect(latest(second!)).toBe(own);
      expect(latest(third!)).toBe(own);
    }
    const history = await helpdesk.http.get('/sessions/one-session').expect(200);
    const asked = (history.body.turns as Array<{ role: string; text: string }>)
      .filter((t) => t.role === 'user')
      .map((t) => t.text);
    const order = calls
      .filter((_, i) => i % 3 === 0)
      .map((c) => [...textsIn(c).matchAll(/question (\d+)/g)].at(-1)?.[1]);
    expect(asked.map((t) => /question (\d+)/.exec(t)?.[1])).toEqual(order);
    expect([...asked].sort()).toEqual([...messages].sort());
    // Each reply went back to the request that asked it: the transcript pairs each question with it.
    const turns = history.body.turns as Array<{ role: string; text: string }>;
    for (const [i, res] of responses.entries()) {
      const at = turns.findIndex((t) => t.role === 'user' && t.text === messages[i]);
      expect(turns[at + 1]?.text).toBe(res.body.reply);
    }
  });

  it('when 50 sessions send a message at once, then their model calls overlap and each is answered from its own history', async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `parallel-${i}`);
    // Each model answer takes 200 ms, so calls of sessions running in parallel are in flight together.
    helpdesk.emulator.setLatency(200);
    try {
      const sending = Promise.all(
        ids.map((id, i) => helpdesk.send(id, i % 2 ? OUTAGE_QUESTION : INVOICE_QUESTION)),
      );
      // Serialized sessions would never have more than one model call in flight.
      await waitFor(
        () => helpdesk.pendingModelCalls() >= 10,
        20_000,
        '10 model calls in flight at once',
      );
      const responses = await sending;

      expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
      responses.forEach((res, i) => {
        expect(res.body.session_id).toBe(ids[i]);
        expect(res.body.agent).toBe(i % 2 ? 'technical' : 'billing');
      });
    } finally {
      helpdesk.emulator.setLatency(5);
    }
    const histories = await Promise.all(
      ids.map((id) => helpdesk.http.get(`/sessions/${id}`).expect(200)),
    );
    for (const history of histories) expect(history.body.turns).toHaveLength(2);
  }, 30_000);

  it('when one session waits on a model call that hangs, then another session is answered meanwhile', async () => {
    // Its own instance: the hang lasts until the 60 s model timeout, or until the emulator closes.
    const isolated = await startHelpdesk({ model: { timeoutMs: 60_000 } });
    try {
      isolated.emulator.faults.add({ provider: 'gemini', count: 1, kind: 'hang' });
      let slowSettled = false;
      const slow = isolated.send('slow-session', INVOICE_QUESTION).then((res) => {
        slowSettled = true;
        return res;
      });
      await waitFor(() => isolated.pendingModelCalls() === 1, 5_000, 'the slow call to hang');

      const fast = await isolated.send('fast-session', OUTAGE_QUESTION).expect(200);

      expect(fast.body.agent).toBe('technical');
      expect(slowSettled).toBe(false);
      expect(isolated.pendingModelCalls()).toBe(1);
      // Closing the emulator cuts the hung call; with nothing left to retry against, the turn fails.
      isolated.emulator.faults.clear();
      await isolated.close();
      expect((await slow).status).toBe(502);
    } finally {
      await isolated.close();
    }
  }, 30_000);

  it('when too many messages wait on one session, then the extra ones are refused with 429', async () => {
    const limited = await startHelpdesk({ chat: { maxQueuedPerSession: 2 } });
    try {
      limited.emulator.faults.add({ provider: 'gemini', count: 1, kind: 'delay', delayMs: 1_000 });
      const first = limited.send('busy-session', INVOICE_QUESTION).then((r) => r);
      await waitFor(
        () => limited.modelCalls().length === 1,
        5_000,
        'the first turn to reach the model',
      );
      const second = limited.send('busy-session', OUTAGE_QUESTION).then((r) => r);
      await waitFor(
        () => limited.chat.queuedTurns('busy-session') === 2,
        5_000,
        'the second turn to queue',
      );

      const third = await limited.send('busy-session', INVOICE_QUESTION);

      expect(third.status).toBe(429);
      expect(third.headers['retry-after']).toBe('1');
      expect(third.body).toMatchObject({ code: 'session_busy', session_id: 'busy-session' });
      expect((await first).status).toBe(200);
      expect((await second).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
