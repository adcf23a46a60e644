import {
  callerOf,
  INVOICE_QUESTION,
  OUTAGE_QUESTION,
  startHelpdesk,
  textsIn,
  type HelpdeskUnderTest,
} from './support/harness.js';

describe('model failures', () => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    // 2 retries (3 attempts), short backoff, and a short timeout so a hang is cut quickly.
    helpdesk = await startHelpdesk({
      model: { timeoutMs: 400, maxRetries: 2, retryBaseDelayMs: 10 },
    });
  });
  afterAll(() => helpdesk.close());
  beforeEach(() => {
    helpdesk.emulator.faults.clear();
    helpdesk.emulator.requests.clear();
  });

  async function expectSessionStillUsable(sessionId: string, failedMessage: string) {
    helpdesk.emulator.requests.clear();
    const next = await helpdesk.send(sessionId, OUTAGE_QUESTION).expect(200);
    expect(next.body.agent).toBe('technical');
    // The failed turn left nothing behind: not in the transcript, not in the model's history.
    const history = await helpdesk.http.get(`/sessions/${sessionId}`).expect(200);
    expect((history.body.turns as Array<{ text: string }>).map((t) => t.text)).not.toContain(
      failedMessage,
    );
    for (const call of helpdesk.modelCalls()) expect(textsIn(call)).not.toContain(failedMessage);
  }

  it('when the model keeps answering 503, then the turn fails with 502 after the retries and the session stays usable', async () => {
    const failing = 'What is the status of invoice INV-1002?';
    helpdesk.emulator.faults.add({ provider: 'gemini', count: 3, kind: 'status', status: 503 });

    const res = await helpdesk.send('fault-503', failing).expect(502);

    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 502, code: 'model_error', session_id: 'fault-503' });
    expect(helpdesk.modelCalls().map((c) => c.status)).toEqual([503, 503, 503]);
    await expectSessionStillUsable('fault-503', failing);
  });

  it('when the model keeps answering 500, then the turn fails with 502', async () => {
    helpdesk.emulator.faults.add({ provider: 'gemini', count: 3, kind: 'status', status: 500 });

    const res = await helpdesk.send('fault-500', INVOICE_QUESTION).expect(502);

    expect(res.body.code).toBe('model_error');
    expect(helpdesk.modelCalls()).toHaveLength(3);
  });

  it('when the model hangs on every attempt, then the turn fails with 504 and the session stays usable', async () => {
    const failing = 'Can you look at invoice INV-1004?';
    helpdesk.emulator.faults.add({ provider: 'gemini', count: 3, kind: 'hang' });

    const res = await helpdesk.send('fault-hang', failing).expect(504);

    expect(res.body).toMatchObject({
      status: 504,
      code: 'model_timeout',
      session_id: 'fault-hang',
    });
    expect(helpdesk.modelCalls()).toHaveLength(3);
    await expectSessionStillUsable('fault-hang', failing);
  });

  it('when the model answers 429 once, then the call is retried and the turn succeeds', async () => {
    helpdesk.emulator.faults.add({
      provider: 'gemini',
      count: 1,
      kind: 'status',
      status: 429,
      retryAfterSeconds: 0,
    });

    const res = await helpdesk.send('fault-429', INVOICE_QUESTION).expect(200);

    expect(res.body.agent).toBe('billing');
    expect(res.body.reply).toContain('INV-1001');
    const calls = helpdesk.modelCalls();
    expect(calls.map((c) => c.status)).toEqual([429, 200, 200, 200]);
    expect(calls.map(callerOf)).toEqual(['coordinator', 'coordinator', 'billing', 'billing']);
    await expectSessionStillUsable('fault-429', 'never sent');
  });

  it('when the connection drops once, then the call is retried and the turn succeeds', async () => {
    helpdesk.emulator.faults.add({ provider: 'gemini', count: 1, kind: 'disconnect' });

    const res = await helpdesk.send('fault-disconnect', INVOICE_QUESTION).expect(200);

    expect(res.body.agent).toBe('billing');
    expect(helpdesk.modelCalls()).toHaveLength(4);
  });

  it('when the model answers a malformed body, then the turn fails with 502 without retrying', async () => {
    helpdesk.emulator.faults.add({ provider: 'gemini', count: 1, kind: 'malformed' });

    const res = await helpdesk.send('fault-malformed', INVOICE_QUESTION).expect(502);

    expect(res.body.code).toBe('model_error');
    expect(helpdesk.modelCalls()).toHaveLength(1);
    await expectSessionStillUsable('fault-malformed', INVOICE_QUESTION);
  });

  it('when the provider rejects the request with 400, then the turn fails with 502 without retrying', async () => {
    helpdesk.emulator.faults.add({ provider: 'gemini', count: 1, kind: 'status', status: 400 });

    await helpdesk.send('fault-400', INVOICE_QUESTION).expect(502);

    expect(helpdesk.modelCalls()).toHaveLength(1);
  });
});
