import { Writable } from 'node:stream';
import { pino } from 'pino';
import {
  callerOf,
  functionResponsesIn,
  HUMAN_REQUEST,
  INVOICE_QUESTION,
  OUTAGE_QUESTION,
  PROVIDERS,
  startHelpdesk,
  textsIn,
  type HelpdeskUnderTest,
  undocumentedResponsesSoFar,
} from './support/harness.js';

/** The app's log lines, as the error middleware writes them. */
function capturedLogger() {
  const lines: Array<{ level: number; msg: string; err?: { message?: string } }> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

// The document cannot drift: every answer this suite saw is documented for its route.
afterAll(async () => {
  expect(await undocumentedResponsesSoFar()).toEqual([]);
});

describe.each(PROVIDERS)('model failures, on %s', (provider) => {
  let helpdesk: HelpdeskUnderTest;
  const log = capturedLogger();

  beforeAll(async () => {
    // 2 retries (3 attempts) with a short backoff; the harness's 5 s timeout per model call.
    helpdesk = await startHelpdesk({
      provider,
      model: { maxRetries: 2, retryBaseDelayMs: 10 },
      logger: log.logger,
    });
  });
  afterAll(() => helpdesk.close());
  beforeEach(() => {
    helpdesk.emulator.faults.clear();
    helpdesk.emulator.requests.clear();
    log.lines.length = 0;
  });

  it('when the model keeps answering 503, then the client gets a generic detail and the provider message is only logged', async () => {
    helpdesk.emulator.faults.add({ provider, count: 3, kind: 'status', status: 503 });

    const res = await helpdesk.send('fault-detail', INVOICE_QUESTION).expect(502);

    expect(res.body.detail).toBe('The model call failed.');
    expect(res.text).not.toMatch(/Injected fault|attempt/);
    expect(res.body).not.toHaveProperty('ticket_id');
    const failed = log.lines.find((line) => line.level === 50 && line.msg === 'request failed');
    expect(failed?.err?.message).toMatch(/Injected fault: status 503/);
  });

  it('when the model fails on the reply after escalation opened a ticket, then the 502 names the ticket', async () => {
    // Calls 1 (coordinator: transfer) and 2 (escalation: create_ticket) go through untouched;
    // the 503s hit call 3, the escalation's reply, and both its retries.
    helpdesk.emulator.faults.add({ provider, count: 2, kind: 'delay', delayMs: 0 });
    helpdesk.emulator.faults.add({ provider, count: 3, kind: 'status', status: 503 });

    const res = await helpdesk.send('fault-after-ticket', HUMAN_REQUEST).expect(502);

    const calls = helpdesk.modelCalls();
    expect(calls.map((c) => c.status)).toEqual([200, 200, 503, 503, 503]);
    expect(calls.map(callerOf)).toEqual([
      'coordinator',
      'escalation',
      'escalation',
      'escalation',
      'escalation',
    ]);
    const ticketIds = new Set(
      calls
        .flatMap(functionResponsesIn)
        .filter((r) => r.name === 'create_ticket')
        .map((r) => r.response['ticket_id']),
    );
    expect([...ticketIds]).toEqual([expect.stringMatching(/^TCK-/)]);
    expect(res.body).toMatchObject({
      status: 502,
      code: 'model_error',
      session_id: 'fault-after-ticket',
      ticket_id: [...ticketIds][0],
    });
    await expectUsable(helpdesk, 'fault-after-ticket', HUMAN_REQUEST);
  });

  it('when the model keeps answering 503, then the turn fails with 502 after the retries and the session stays usable', async () => {
    const failing = 'What is the status of invoice INV-1002?';
    helpdesk.emulator.faults.add({ provider, count: 3, kind: 'status', status: 503 });

    const res = await helpdesk.send('fault-503', failing).expect(502);

    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 502, code: 'model_error', session_id: 'fault-503' });
    expect(helpdesk.modelCalls().map((c) => c.status)).toEqual([503, 503, 503]);
    await expectUsable(helpdesk, 'fault-503', failing);
  });

  it('when the model keeps answering 500, then the turn fails with 502', async () => {
    helpdesk.emulator.faults.add({ provider, count: 3, kind: 'status', status: 500 });

    const res = await helpdesk.send('fault-500', INVOICE_QUESTION).expect(502);

    expect(res.body.code).toBe('model_error');
    expect(helpdesk.modelCalls()).toHaveLength(3);
  });

  it('when the model answers 429 once, then the call is retried and the turn succeeds', async () => {
    helpdesk.emulator.faults.add({
      provider,
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
    await expectUsable(helpdesk, 'fault-429', 'never sent');
  });

  it('when the connection drops once, then the call is retried and the turn succeeds', async () => {
    helpdesk.emulator.faults.add({ provider, count: 1, kind: 'disconnect' });

    const res = await helpdesk.send('fault-disconnect', INVOICE_QUESTION).expect(200);

    expect(res.body.agent).toBe('billing');
    expect(helpdesk.modelCalls()).toHaveLength(4);
  });

  it('when the model answers a malformed body, then the turn fails with 502 without retrying', async () => {
    helpdesk.emulator.faults.add({ provider, count: 1, kind: 'malformed' });

    const res = await helpdesk.send('fault-malformed', INVOICE_QUESTION).expect(502);

    expect(res.body.code).toBe('model_error');
    expect(helpdesk.modelCalls()).toHaveLength(1);
    await expectUsable(helpdesk, 'fault-malformed', INVOICE_QUESTION);
  });

  it('when the provider rejects the request with 400, then the turn fails with 502 without retrying', async () => {
    helpdesk.emulator.faults.add({ provider, count: 1, kind: 'status', status: 400 });

    await helpdesk.send('fault-400', INVOICE_QUESTION).expect(502);

    expect(helpdesk.modelCalls()).toHaveLength(1);
  });

  it('when the model hangs on every attempt, then the turn fails with 504 and the session stays usable', async () => {
    // Only this test needs a short timeout, so that three hung attempts are cut quickly.
    const hanging = await startHelpdesk({
      provider,
      model: { timeoutMs: 1_000, maxRetries: 2, retryBaseDelayMs: 10 },
    });
    try {
      const failing = 'Can you look at invoice INV-1004?';
      hanging.emulator.faults.add({ provider, count: 3, kind: 'hang' });

      const res = await hanging.send('fault-hang', failing).expect(504);

      expect(res.body).toMatchObject({
        status: 504,
        code: 'model_timeout',
        detail: 'The model did not answer in time.',
        session_id: 'fault-hang',
      });
      expect(hanging.modelCalls()).toHaveLength(3);
      await expectUsable(hanging, 'fault-hang', failing);
    } finally {
      await hanging.close();
    }
  });
});

/** A later message in the session is answered, and the failed one left no trace. */
async function expectUsable(helpdesk: HelpdeskUnderTest, sessionId: string, failedMessage: string) {
  helpdesk.emulator.requests.clear();
  const next = await helpdesk.send(sessionId, OUTAGE_QUESTION).expect(200);
  expect(next.body.agent).toBe('technical');
  expect(next.body).not.toHaveProperty('ticket_id');
  // Not in the transcript, not in the model's history.
  const history = await helpdesk.http.get(`/sessions/${sessionId}`).expect(200);
  expect((history.body.turns as Array<{ text: string }>).map((t) => t.text)).not.toContain(
    failedMessage,
  );
  for (const call of helpdesk.modelCalls()) expect(textsIn(call)).not.toContain(failedMessage);
}
