import type {
  AgentCard,
  Message,
  MessageSendParams,
  Task,
  TaskArtifactUpdateEvent,
  TaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import { DefaultAgentCardResolver, TaskNotCancelableError, type Client } from '@a2a-js/sdk/client';
import { randomUUID } from 'node:crypto';
import { clientFor, dataOf, message, textOf } from './support/a2a-client.js';
import {
  HUMAN_REQUEST,
  INVOICE_QUESTION,
  OUTAGE_QUESTION,
  startHelpdesk,
  textsIn,
  waitFor,
  type HelpdeskUnderTest,
} from './support/harness.js';

const TOKEN = 'a2a-test-token-0123456789';

const SPECIALISTS = [
  ['billing', INVOICE_QUESTION],
  ['technical', OUTAGE_QUESTION],
  ['escalation', HUMAN_REQUEST],
] as const;

type RpcError = { errorResponse?: { error: { code: number; data?: unknown } } };

/**
 * The JSON-RPC error a rejected SDK call carries: on the error itself, or (an error event inside a
 * stream) on its cause.
 */
async function rpcErrorOf(call: Promise<unknown>): Promise<{ code: number; data?: unknown }> {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as (RpcError & { cause?: RpcError }) | undefined;
  const response = error?.errorResponse ?? error?.cause?.errorResponse;
  if (!response) throw new Error(`expected a JSON-RPC error, got ${String(error)}`);
  return response.error;
}

describe('helpdesk as an A2A agent (SDK client)', () => {
  let helpdesk: HelpdeskUnderTest;
  let url: string;
  let client: Client;

  beforeAll(async () => {
    helpdesk = await startHelpdesk();
    url = await helpdesk.url();
    client = await clientFor(url);
  });
  afterAll(() => helpdesk.close());
  beforeEach(() => {
    helpdesk.emulator.faults.clear();
    helpdesk.emulator.requests.clear();
    helpdesk.emulator.setLatency(0);
  });

  it('when the card is resolved, then it is an AgentCard naming the three skills, streaming and the JSON-RPC url', async () => {
    const card: AgentCard = await new DefaultAgentCardResolver().resolve(url);

    expect(card).toMatchObject({
      protocolVersion: '0.3.0',
      name: 'helpdesk',
      url: `${url}/a2a`,
      preferredTransport: 'JSONRPC',
      capabilities: { streaming: true },
    });
    expect(card.skills.map((s) => s.id)).toEqual(['billing', 'technical', 'escalation']);
    for (const skill of card.skills) expect(skill.examples?.length).toBeGreaterThan(0);
    expect(card.securitySchemes).toBeUndefined();
    expect(await client.getAgentCard()).toEqual(card);
  });

  it.each(SPECIALISTS)(
    'when %s is asked with message/send, then the completed task names it in a data part',
    async (agent, text) => {
      const result = (await client.sendMessage(message(text))) as Task;

      expect(result.kind).toBe('task');
      expect(result.status.state).toBe('completed');
      const reply = result.status.message!;
      expect(textOf(reply.parts)).toMatch(/\S/);
      const [data] = dataOf(reply.parts);
      expect(data).toMatchObject({ agent, session_id: result.contextId });
      if (agent === 'escalation') expect(data?.['ticket_id']).toMatch(/^TCK-[A-Z0-9]{8}$/);
      else expect(data).not.toHaveProperty('ticket_id');
      // The same turn POST /chat runs: recorded in the session the contextId names.
      const session = await helpdesk.http.get(`/sessions/${result.contextId}`).expect(200);
      expect(session.body.turns.map((t: { agent: unknown }) => t.agent)).toEqual([null, agent]);
      expect(session.body.turns[1].text).toBe(textOf(reply.parts));
      // Only the outcome is needed: the model calls are the non-streaming ones, as POST /chat's JSON mode makes.
      const paths = helpdesk.modelCalls().map((call) => call.path);
      expect(paths.length).toBeGreaterThan(0);
      for (const path of paths) expect(path).toMatch(/:generateContent$/);
    },
  );

  it.each(SPECIALISTS)(
    'when %s is asked with message/stream, then text streams into the reply artifact and the final status carries it',
    async (agent, text) => {
      const events = [];
      for await (const event of client.sendMessageStream(message(text))) events.push(event);

      expect(events[0]?.kind).toBe('task');
      for (const call of helpdesk.modelCalls())
        expect(call.path).toMatch(/:streamGenerateContent$/);
      const deltas = events.filter(
        (e): e is TaskArtifactUpdateEvent => e.kind === 'artifact-update' && !e.lastChunk,
      );
      expect(deltas.length).toBeGreaterThan(1);
      const progress = events
        .filter((e): e is TaskStatusUpdateEvent => e.kind === 'status-update' && !e.final)
        .flatMap((e) => dataOf(e.status.message?.parts));
      expect(progress).toContainEqual({ event: 'agent', agent });
      expect(progress.some((d) => d['event'] === 'tool_call')).toBe(true);
      const last = events.at(-1) as TaskStatusUpdateEvent;
      expect(last).toMatchObject({
        kind: 'status-update',
        final: true,
        status: { state: 'completed' },
      });
      const reply = textOf(last.status.message?.parts);
      expect(
        deltas
          .map((d) => textOf(d.artifact.parts))
          .join('')
          .trim(),
      ).toBe(reply);
      expect(dataOf(last.status.message?.parts)[0]).toMatchObject({ agent });

      // tasks/get after the stream: the task as it ended, its reply artifact replaced whole.
      const task = await client.getTask({ id: last.taskId });
      expect(task.status.state).toBe('completed');
      expect(task.artifacts).toHaveLength(1);
      expect(textOf(task.artifacts![0]!.parts)).toBe(reply);
      expect(dataOf(task.artifacts![0]!.parts)[0]).toMatchObject({ agent });
    },
  );

  it('when two messages share a contextId, then they are one session and the second prompt shows the first', async () => {
    const contextId = `a2a-${randomUUID()}`;
    const first = (await client.sendMessage(message(INVOICE_QUESTION, contextId))) as Task;
    helpdesk.emulator.requests.clear();

    const second = (await client.sendMessage(message(OUTAGE_QUESTION, contextId))) as Task;

    expect([first.contextId, second.contextId]).toEqual([contextId, contextId]);
    expect(second.id).not.toBe(first.id);
    expect(dataOf(second.status.message?.parts)[0]).toMatchObject({ agent: 'technical' });
    const prompts = helpdesk.modelCalls().map(textsIn);
    expect(prompts.length).toBeGreaterThan(0);
    for (const prompt of prompts) expect(prompt).toContain(INVOICE_QUESTION);
    const session = await helpdesk.http.get(`/sessions/${contextId}`).expect(200);
    expect(session.body.turns).toHaveLength(4);
  });

  it('when the model fails, then the task fails with the problem code POST /chat would answer', async () => {
    helpdesk.emulator.faults.add({ kind: 'status', status: 500, count: 10 });

    const result = (await client.sendMessage(message(INVOICE_QUESTION))) as Task;

    expect(result.status.state).toBe('failed');
    expect(dataOf(result.status.message?.parts)[0]).toMatchObject({
      error: { status: 502, code: 'model_error' },
    });
  });

  it('when a message is bad, then JSON-RPC errors say why and no turn runs', async () => {
    const blank = await rpcErrorOf(client.sendMessage(message('   ')));
    expect(blank).toMatchObject({ code: -32602, data: { code: 'validation_failed' } });
    const badContext = await rpcErrorOf(client.sendMessage(message('Hello', 'no spaces allowed')));
    expect(badContext).toMatchObject({ code: -32602, data: { code: 'validation_failed' } });
    const tooLong = await rpcErrorOf(client.sendMessage(message('x'.repeat(8001))));
    expect(tooLong.code).toBe(-32602);
    const noText: MessageSendParams = {
      message: {
        kind: 'message',
        role: 'user',
        messageId: randomUUID(),
        parts: [{ kind: 'data', data: { invoice: 'INV-1001' } }],
      },
    };
    expect((await rpcErrorOf(client.sendMessage(noText))).code).toBe(-32005);
    const streamed = client.sendMessageStream(message(''));
    expect((await rpcErrorOf(streamed.next())).code).toBe(-32602);
    expect((await rpcErrorOf(client.getTask({ id: 'no-such-task' }))).code).toBe(-32001);
    expect((await rpcErrorOf(client.cancelTask({ id: 'no-such-task' }))).code).toBe(-32001);
    expect(helpdesk.modelCalls()).toEqual([]);
  });

  it('when parts are not objects with a kind, or a text part has no string text, then -32602 validation_failed and no turn runs', async () => {
    for (const parts of [
      [null],
      [{ kind: 'text', text: 42 }],
      [{ kind: 'text' }],
      [{ text: 'hi' }],
    ]) {
      const res = await helpdesk.http
        .post('/a2a')
        .send({
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: { message: { kind: 'message', role: 'user', messageId: randomUUID(), parts } },
        })
        .expect(200);
      expect([parts, res.body.error]).toMatchObject([
        parts,
        { code: -32602, data: { code: 'validation_failed' } },
      ]);
    }
    expect(helpdesk.modelCalls()).toEqual([]);
  });

  it('when a message names a task whose turn has not ended, then -32600 task_busy, and that turn ends with its own reply', async () => {
    const contextId = `a2a-busy-${randomUUID()}`;
    helpdesk.emulator.setLatency(1_500);
    const running = (await client.sendMessage({
      ...message(INVOICE_QUESTION, contextId),
      configuration: { blocking: false },
    })) as Task;
    const follow = message('Also, is the API down?', contextId);
    const refused = await rpcErrorOf(
      client.sendMessage({ ...follow, message: { ...follow.message, taskId: running.id } }),
    );
    expect(refused).toMatchObject({ code: -32600, data: { code: 'task_busy' } });

    let finished: Task | undefined;
    await waitFor(
      async () =>
        (finished = await client.getTask({ id: running.id })).status.state === 'completed',
      30_000,
      'the running turn to finish',
    );
    expect(dataOf(finished!.status.message?.parts)[0]).toMatchObject({ agent: 'billing' });
    for (const call of helpdesk.modelCalls())
      expect(textsIn(call)).not.toContain('Also, is the API down?');
  });

  it('when a queued task is cancelled, then it never reaches the model; a running one is refused at once (-32002) and finishes', async () => {
    const contextId = `a2a-cancel-${randomUUID()}`;
    // Each model call takes 1.5 s: the running turn is still running when its cancel is answered.
    helpdesk.emulator.setLatency(1_500);
    const running = (await client.sendMessage({
      ...message(INVOICE_QUESTION, contextId),
      configuration: { blocking: false },
    })) as Task;
    await waitFor(
      async () => (await client.getTask({ id: running.id })).status.state === 'working',
      10_000,
      'the first turn to start',
    );
    const queued = (await client.sendMessage({
      ...message('Also, is the API down?', contextId),
      configuration: { blocking: false },
    })) as Task;
    expect(queued.status.state).toBe('submitted');

    const cancelled = await client.cancelTask({ id: queued.id });
    expect(cancelled.status.state).toBe('canceled');

    const refused = await client.cancelTask({ id: running.id }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TaskNotCancelableError);
    // Answered without waiting for the turn (it used to hold the cancel until the turn ended).
    expect((await client.getTask({ id: running.id })).status.state).toBe('working');
    await waitFor(
      async () => (await client.getTask({ id: running.id })).status.state === 'completed',
      30_000,
      'the running turn to finish',
    );
    expect((await client.getTask({ id: queued.id })).status.state).toBe('canceled');
    for (const call of helpdesk.modelCalls())
      expect(textsIn(call)).not.toContain('Also, is the API down?');
    const session = await helpdesk.http.get(`/sessions/${contextId}`).expect(200);
    expect(session.body.turns.map((t: { text: string }) => t.text)).toEqual([
      INVOICE_QUESTION,
      expect.any(String),
    ]);
  });
});

describe('helpdesk as an A2A agent with API_TOKEN', () => {
  let helpdesk: HelpdeskUnderTest;
  let url: string;

  beforeAll(async () => {
    helpdesk = await startHelpdesk({ apiToken: TOKEN });
    url = await helpdesk.url();
  });
  afterAll(() => helpdesk.close());

  it('when the client has no token, then the card says bearer and every call is refused', async () => {
    const client = await clientFor(url);
    const card = await client.getAgentCard();
    expect(card.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    expect(card.security).toEqual([{ bearer: [] }]);

    const refused = await client.sendMessage(message(INVOICE_QUESTION)).catch((e: unknown) => e);

    expect(String(refused)).toMatch(/401/);
    expect(helpdesk.modelCalls()).toEqual([]);
  });

  it('when the client sends the token, then it is answered', async () => {
    const client = await clientFor(url, TOKEN);
    const result = (await client.sendMessage(message(INVOICE_QUESTION))) as Message | Task;
    expect(result.kind).toBe('task');
    expect((result as Task).status.state).toBe('completed');
  });
});
