import { InMemorySessionService, Runner } from '@google/adk';
import {
  callerOf,
  HUMAN_REQUEST,
  INVOICE_QUESTION,
  OUTAGE_QUESTION,
  startHelpdesk,
  textsIn,
  type HelpdeskUnderTest,
} from './support/harness.js';

describe('sessions', () => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk();
  });
  afterAll(() => helpdesk.close());

  it('when messages were exchanged, then GET /sessions/{id} lists them in order with the answering agents', async () => {
    const billing = await helpdesk.send('turns-1', INVOICE_QUESTION).expect(200);
    const escalation = await helpdesk.send('turns-1', HUMAN_REQUEST).expect(200);

    const res = await helpdesk.http.get('/sessions/turns-1').expect(200);

    expect(res.body.session_id).toBe('turns-1');
    expect(res.body.turns).toEqual([
      { role: 'user', agent: null, text: INVOICE_QUESTION, at: expect.any(String) },
      { role: 'assistant', agent: 'billing', text: billing.body.reply, at: expect.any(String) },
      { role: 'user', agent: null, text: HUMAN_REQUEST, at: expect.any(String) },
      {
        role: 'assistant',
        agent: 'escalation',
        text: escalation.body.reply,
        ticket_id: escalation.body.ticket_id,
        at: expect.any(String),
      },
    ]);
    const times = (res.body.turns as Array<{ at: string }>).map((t) => Date.parse(t.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('when the session id is unknown, then GET answers 404 with problem details', async () => {
    const res = await helpdesk.http.get('/sessions/never-seen').expect(404);

    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 404, code: 'session_not_found' });
  });

  it('when a session is deleted, then it answers 204, is gone, and its next message starts afresh', async () => {
    await helpdesk.send('deleted-1', INVOICE_QUESTION).expect(200);

    await helpdesk.http.delete('/sessions/deleted-1').expect(204);
    await helpdesk.http.get('/sessions/deleted-1').expect(404);
    await helpdesk.http.delete('/sessions/deleted-1').expect(204);

    helpdesk.emulator.requests.clear();
    await helpdesk.send('deleted-1', OUTAGE_QUESTION).expect(200);
    const coordinatorCall = helpdesk.modelCalls().find((c) => callerOf(c) === 'coordinator')!;
    expect(textsIn(coordinatorCall)).not.toContain('INV-1001');
    const after = await helpdesk.http.get('/sessions/deleted-1').expect(200);
    expect(after.body.turns).toHaveLength(2);
  });

  it('when two sessions talk at the same time, then neither sees the other in its history or its prompts', async () => {
    helpdesk.emulator.requests.clear();
    await Promise.all([
      helpdesk.send('isolated-a', INVOICE_QUESTION).expect(200),
      helpdesk.send('isolated-b', OUTAGE_QUESTION).expect(200),
    ]);
    await helpdesk.send('isolated-a', 'And what about invoice INV-1003?').expect(200);
    await helpdesk.send('isolated-b', 'Is the dashboard down?').expect(200);

    const a = await helpdesk.http.get('/sessions/isolated-a').expect(200);
    const b = await helpdesk.http.get('/sessions/isolated-b').expect(200);
    const aTexts = (a.body.turns as Array<{ text: string }>).map((t) => t.text).join('\n');
    const bTexts = (b.body.turns as Array<{ text: string }>).map((t) => t.text).join('\n');
    expect(aTexts).toContain('INV-1003');
    expect(aTexts).not.toMatch(/dashboard|Is the API down/);
    expect(bTexts).toContain('dashboard');
    expect(bTexts).not.toMatch(/INV-100/);

    // What the model was shown: no prompt mixes the two conversations.
    for (const call of helpdesk.modelCalls()) {
      const shown = textsIn(call);
      expect(shown.includes('INV-100') && /API down|dashboard/.test(shown)).toBe(false);
    }
  });

  it('when a long session sends many messages of the largest size, then its stored transcript stays within 64 000 characters', async () => {
    const longMessage = (turn: number) =>
      `${INVOICE_QUESTION} (turn ${turn}) ${'x'.repeat(7_900)}`.slice(0, 8_000);
    for (let turn = 1; turn <= 12; turn += 1) {
      await helpdesk.send('long-transcript', longMessage(turn)).expect(200);
    }

    const res = await helpdesk.http.get('/sessions/long-transcript').expect(200);

    const turns = res.body.turns as Array<{ role: string; text: string }>;
    const chars = turns.reduce((sum, t) => sum + t.text.length, 0);
    expect(chars).toBeLessThanOrEqual(64_000);
    // The oldest exchanges went, whole; the latest is there.
    expect(turns.length).toBeLessThan(24);
    expect(turns[0]?.role).toBe('user');
    expect(turns.at(-2)?.text).toBe(longMessage(12));
    expect(turns.map((t) => t.text)).not.toContain(longMessage(1));
  });
});

describe('injected session service and runner', () => {
  it('when a session service is injected, then the chat keeps its ADK sessions there', async () => {
    const sessionService = new InMemorySessionService();
    const helpdesk = await startHelpdesk({ chat: { sessionService } });
    try {
      await helpdesk.send('injected-1', INVOICE_QUESTION).expect(200);

      const session = await sessionService.getSession({
        appName: 'helpdesk',
        userId: 'helpdesk',
        sessionId: 'injected-1',
      });
      expect(session?.events.length).toBeGreaterThan(0);
      await helpdesk.http.delete('/sessions/injected-1').expect(204);
      expect(
        await sessionService.getSession({
          appName: 'helpdesk',
          userId: 'helpdesk',
          sessionId: 'injected-1',
        }),
      ).toBeUndefined();
    } finally {
      await helpdesk.close();
    }
  });

  it('when a runner is injected, then turns run through it, on its session service', async () => {
    let runs = 0;
    class CountingRunner extends Runner {
      override runAsync(...args: Parameters<Runner['runAsync']>) {
        runs += 1;
        return super.runAsync(...args);
      }
    }
    const sessionService = new InMemorySessionService();
    const helpdesk = await startHelpdesk({
      runner: (agent) => new CountingRunner({ appName: 'helpdesk', agent, sessionService }),
    });
    try {
      await helpdesk.send('injected-2', OUTAGE_QUESTION).expect(200);

      expect(runs).toBe(1);
      const session = await sessionService.getSession({
        appName: 'helpdesk',
        userId: 'helpdesk',
        sessionId: 'injected-2',
      });
      expect(session?.events.length).toBeGreaterThan(0);
    } finally {
      await helpdesk.close();
    }
  });
});
