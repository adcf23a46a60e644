import {
  HUMAN_REQUEST,
  INVOICE_QUESTION,
  OUTAGE_QUESTION,
  PROVIDERS,
  startHelpdesk,
  undocumentedResponsesSoFar,
  waitFor,
  type HelpdeskUnderTest,
} from './support/harness.js';
import { streamChat, type ReadEvent } from './support/sse-client.js';

// The document cannot drift: every answer this suite saw is documented for its route.
afterAll(async () => {
  expect(await undocumentedResponsesSoFar()).toEqual([]);
});

const names = (events: ReadEvent[]) => events.map((e) => e.event).join(' ');
const deltaText = (events: ReadEvent[]) =>
  events
    .filter((e) => e.event === 'delta')
    .map((e) => e.data['text'])
    .join('');

/** agent → tool_call → tool_result → delta… → done: one specialist's whole turn. */
const SPECIALIST_TURN = /^agent tool_call tool_result (delta )+done$/;

describe.each(PROVIDERS)('POST /chat as an event stream, on %s', (provider) => {
  let helpdesk: HelpdeskUnderTest;
  let url: string;

  beforeAll(async () => {
    helpdesk = await startHelpdesk({ provider });
    url = await helpdesk.url();
  });
  afterAll(() => helpdesk.close());
  beforeEach(() => {
    helpdesk.emulator.faults.clear();
    helpdesk.emulator.requests.clear();
  });

  it.each([
    ['billing', 'lookup_invoice', INVOICE_QUESTION],
    ['technical', 'check_service_status', OUTAGE_QUESTION],
  ])(
    'when %s answers, then the events come in order and done equals the JSON answer',
    async (agent, tool, message) => {
      const json = await helpdesk.send(`json-${agent}`, message).expect(200);

      const stream = await streamChat(url, `sse-${agent}`, message);

      expect(stream.status).toBe(200);
      expect(stream.contentType).toMatch(/^text\/event-stream/);
      expect(names(stream.events)).toMatch(SPECIALIST_TURN);
      expect(stream.events.map((e) => e.id)).toEqual(stream.events.map((_e, i) => String(i + 1)));
      expect(stream.events[0]?.data).toEqual({ agent });
      expect(stream.events[1]?.data).toMatchObject({ name: tool, args: expect.any(Object) });
      expect(stream.events[2]?.data).toMatchObject({ name: tool, result: expect.any(Object) });
      const done = stream.events.at(-1)!.data;
      expect(done).toEqual({ ...json.body, session_id: `sse-${agent}` });
      expect(deltaText(stream.events).trim()).toBe(done['reply']);
      // The text came in pieces, from the model's streaming endpoint.
      expect(stream.events.filter((e) => e.event === 'delta').length).toBeGreaterThan(1);
      const streamedCalls = helpdesk.modelCalls().slice(3);
      expect(streamedCalls).toHaveLength(3);
      for (const call of streamedCalls) {
        if (provider === 'gemini') expect(call.path).toMatch(/:streamGenerateContent$/);
        else expect(call.body).toMatchObject({ stream: true });
      }
    },
  );

  it('when escalation answers, then done carries the ticket id the tool returned', async () => {
    const json = await helpdesk.send('json-escalation', HUMAN_REQUEST).expect(200);

    const stream = await streamChat(url, 'sse-escalation', HUMAN_REQUEST);

    expect(names(stream.events)).toMatch(SPECIALIST_TURN);
    const result = stream.events.find((e) => e.event === 'tool_result')!.data;
    const done = stream.events.at(-1)!.data;
    expect(result['name']).toBe('create_ticket');
    expect(result['ticket_id']).toMatch(/^TCK-[A-Z0-9]{8}$/);
    expect(done['ticket_id']).toBe(result['ticket_id']);
    // The same answer as JSON mode, but for the ticket, which is new.
    const sameTicket = (reply: unknown) => String(reply).replaceAll(/TCK-[A-Z0-9]{8}/g, 'TCK-*');
    expect({ ...done, reply: sameTicket(done['reply']), ticket_id: 'TCK-*' }).toEqual({
      ...json.body,
      session_id: 'sse-escalation',
      reply: sameTicket(json.body.reply),
      ticket_id: 'TCK-*',
    });
  });

  it('when the coordinator answers alone, then there is no agent event, only its text and done', async () => {
    const stream = await streamChat(url, 'sse-greeting', 'Hello there, good morning!');

    expect(names(stream.events)).toMatch(/^(delta )+done$/);
    expect(stream.events.at(-1)?.data).toMatchObject({ agent: 'coordinator' });
  });

  it('when the client disconnects after the first event, then the turn completes, is recorded, and the next message works', async () => {
    const stream = await streamChat(url, 'sse-gone', INVOICE_QUESTION, { disconnectAfter: 1 });
    expect(names(stream.events)).toBe('agent');

    await waitFor(
      async () => ((await helpdesk.chat.turns('sse-gone')) ?? []).length === 2,
      10_000,
      'the turn to be recorded',
    );
    const history = await helpdesk.http.get('/sessions/sse-gone').expect(200);
    expect(history.body.turns).toEqual([
      expect.objectContaining({ role: 'user', text: INVOICE_QUESTION }),
      expect.objectContaining({ role: 'assistant', agent: 'billing' }),
    ]);
    const next = await streamChat(url, 'sse-gone', OUTAGE_QUESTION);
    expect(names(next.events)).toMatch(SPECIALIST_TURN);
    expect(next.events.at(-1)?.data).toMatchObject({ agent: 'technical' });
  });

  it('when the model fails mid-turn after a ticket was opened, then an error event names it and the stream ends', async () => {
    // Calls 1 (transfer) and 2 (create_ticket) go through; the reply and its retries fail.
    helpdesk.emulator.faults.add({ provider, count: 2, kind: 'delay', delayMs: 0 });
    helpdesk.emulator.faults.add({ provider, count: 3, kind: 'status', status: 503 });

    const stream = await streamChat(url, 'sse-failing', HUMAN_REQUEST);

    expect(names(stream.events)).toBe('agent tool_call tool_result error');
    const ticketId = stream.events[2]?.data['ticket_id'];
    expect(stream.events[3]?.data).toMatchObject({
      status: 502,
      code: 'model_error',
      detail: 'The model call failed.',
      session_id: 'sse-failing',
      ticket_id: ticketId,
    });
    const history = await helpdesk.http.get('/sessions/sse-failing').expect(200);
    expect(history.body.turns).toEqual([]);
  });
});

describe('POST /chat as an event stream, before the turn starts', () => {
  let helpdesk: HelpdeskUnderTest;
  let url: string;
  const apiToken = 'stream-token';

  beforeAll(async () => {
    helpdesk = await startHelpdesk({ apiToken, chat: { maxQueuedPerSession: 1 } });
    url = await helpdesk.url();
  });
  afterAll(() => helpdesk.close());

  it('when the body is invalid, then the answer is a 400 problem, not a stream', async () => {
    const res = await streamChat(url, 'sse-invalid', '   ', { apiToken });

    expect(res.status).toBe(400);
    expect(res.contentType).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'validation_failed' });
  });

  it('when the token is missing, then the answer is a 401 problem, not a stream', async () => {
    const res = await streamChat(url, 'sse-unauthorised', INVOICE_QUESTION);

    expect(res.status).toBe(401);
    expect(res.contentType).toMatch(/^application\/problem\+json/);
  });

  it('when the session already has a message waiting, then the answer is a 429 session_busy problem', async () => {
    helpdesk.emulator.setLatency(300);
    try {
      const first = streamChat(url, 'sse-busy', INVOICE_QUESTION, { apiToken });
      await waitFor(() => helpdesk.chat.queuedTurns('sse-busy') === 1, 5_000, 'the first turn');

      const second = await streamChat(url, 'sse-busy', OUTAGE_QUESTION, { apiToken });

      expect(second.status).toBe(429);
      expect(second.contentType).toMatch(/^application\/problem\+json/);
      expect(second.body).toMatchObject({ code: 'session_busy', session_id: 'sse-busy' });
      expect(names((await first).events)).toMatch(SPECIALIST_TURN);
    } finally {
      helpdesk.emulator.setLatency(0);
    }
  });
});

describe('POST /chat event stream keep-alive', () => {
  it('when the turn takes longer than the heartbeat interval, then comment lines keep the stream busy', async () => {
    const helpdesk = await startHelpdesk({ latencyMs: 150, sseHeartbeatMs: 50 });
    try {
      const stream = await streamChat(await helpdesk.url(), 'sse-heartbeat', INVOICE_QUESTION);

      expect(stream.comments.length).toBeGreaterThanOrEqual(3);
      expect(names(stream.events)).toMatch(SPECIALIST_TURN);
    } finally {
      await helpdesk.close();
    }
  });

  it.each(PROVIDERS)(
    'on %s, when a streamed reply takes longer in all than the model timeout, each chunk coming in time, then the turn completes',
    async (provider) => {
      // AGENT_LLM_TIMEOUT_MS bounds each wait for the model, not the whole stream: chunks 300 ms
      // apart under a 1 s timeout make a reply of several seconds.
      const slow = await startHelpdesk({ provider, model: { timeoutMs: 1_000, maxRetries: 0 } });
      try {
        slow.emulator.setChunkInterval(300);
        const stream = await streamChat(await slow.url(), 'sse-long', INVOICE_QUESTION);

        expect(names(stream.events)).toMatch(SPECIALIST_TURN);
        expect(stream.events.filter((e) => e.event === 'delta').length).toBeGreaterThan(4);
        expect(stream.events.at(-1)!.data).toMatchObject({ agent: 'billing' });
      } finally {
        await slow.close();
      }
    },
  );

  it('when the document is read, then POST /chat lists the event stream beside JSON', async () => {
    const helpdesk = await startHelpdesk();
    try {
      const document = await helpdesk.document();
      const ok = document.paths['/chat']?.post?.responses['200'] as {
        content: Record<string, { example?: string }>;
      };
      expect(Object.keys(ok.content)).toEqual(['application/json', 'text/event-stream']);
      expect(ok.content['text/event-stream']?.example).toMatch(/^event: agent\nid: 1\n/);
    } finally {
      await helpdesk.close();
    }
  });
});
