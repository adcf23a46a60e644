import {
  callerOf,
  INVOICE_QUESTION,
  ManualClock,
  OUTAGE_QUESTION,
  startHelpdesk,
  textsIn,
  type HelpdeskUnderTest,
} from './support/harness.js';

describe('session eviction', () => {
  const clock = new ManualClock();
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk({
      chat: { sessionTtlMs: 60_000, maxSessions: 3, clock: clock.read },
    });
  });
  afterAll(() => helpdesk.close());

  it('when a session stays idle past the TTL, then it is forgotten and its id starts a new conversation', async () => {
    await helpdesk.send('ttl-1', INVOICE_QUESTION).expect(200);
    clock.advance(59_000);
    await helpdesk.http.get('/sessions/ttl-1').expect(200);

    clock.advance(2_000);

    await helpdesk.http.get('/sessions/ttl-1').expect(404);
    helpdesk.emulator.requests.clear();
    await helpdesk.send('ttl-1', OUTAGE_QUESTION).expect(200);
    const coordinatorCall = helpdesk.modelCalls().find((c) => callerOf(c) === 'coordinator')!;
    expect(textsIn(coordinatorCall)).not.toContain('INV-1001');
    const history = await helpdesk.http.get('/sessions/ttl-1').expect(200);
    expect(history.body.turns).toHaveLength(2);
  });

  it('when a session is used again before the TTL, then its idle time starts over', async () => {
    await helpdesk.send('ttl-2', INVOICE_QUESTION).expect(200);
    clock.advance(50_000);
    await helpdesk.send('ttl-2', OUTAGE_QUESTION).expect(200);

    clock.advance(50_000);

    const history = await helpdesk.http.get('/sessions/ttl-2').expect(200);
    expect(history.body.turns).toHaveLength(4);
  });

  it('when more than MAX_SESSIONS sessions exist, then the least recently used is evicted first', async () => {
    for (const id of ['lru-a', 'lru-b', 'lru-c']) {
      await helpdesk.send(id, INVOICE_QUESTION).expect(200);
      clock.advance(1_000);
    }
    await helpdesk.send('lru-a', OUTAGE_QUESTION).expect(200); // lru-b is now the least recently used
    clock.advance(1_000);

    await helpdesk.send('lru-d', INVOICE_QUESTION).expect(200);

    await helpdesk.http.get('/sessions/lru-b').expect(404);
    for (const id of ['lru-a', 'lru-c', 'lru-d'])
      await helpdesk.http.get(`/sessions/${id}`).expect(200);
    expect(await helpdesk.chat.countSessions()).toBe(3);
  });

  it('when many sessions come and go, then the number kept never exceeds MAX_SESSIONS', async () => {
    for (let i = 0; i < 12; i += 1) {
      await helpdesk.send(`churn-${i}`, OUTAGE_QUESTION).expect(200);
      expect(await helpdesk.chat.countSessions()).toBeLessThanOrEqual(3);
    }
    await helpdesk.http.get('/sessions/churn-11').expect(200);
    await helpdesk.http.get('/sessions/churn-0').expect(404);
  });
});
