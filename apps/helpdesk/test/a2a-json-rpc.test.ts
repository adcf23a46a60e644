import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { Task, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import pino from 'pino';
import { clientFor, message } from './support/a2a-client.js';
import {
  INVOICE_QUESTION,
  startHelpdesk,
  waitFor,
  type HelpdeskUnderTest,
} from './support/harness.js';

/** The service's log lines, as JSON objects. */
function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

/** The data of an event stream's one event. */
const dataLineOf = (text: string) =>
  text
    .split('\n')
    .find((line) => line.startsWith('data: '))!
    .slice('data: '.length);

const rpc = (method: string, params: unknown, id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

const userMessage = (fields: Record<string, unknown> = {}) => ({
  kind: 'message',
  role: 'user',
  messageId: randomUUID(),
  parts: [{ kind: 'text', text: INVOICE_QUESTION }],
  ...fields,
});

describe('helpdesk A2A JSON-RPC edge (raw requests)', () => {
  let helpdesk: HelpdeskUnderTest;
  let client: Client;
  const log = capturedLogger();

  beforeAll(async () => {
    helpdesk = await startHelpdesk({ logger: log.logger });
    client = await clientFor(await helpdesk.url());
  });
  afterAll(() => helpdesk.close());
  beforeEach(() => {
    helpdesk.emulator.requests.clear();
    helpdesk.emulator.setLatency(0);
    log.lines.length = 0;
  });

  it('when the body is not JSON, then a JSON-RPC parse error (-32700) with a null id', async () => {
    const res = await helpdesk.http
      .post('/a2a')
      .set('content-type', 'application/json')
      .send('{"jsonrpc": "2.0", "method": "message/send", "params": {')
      .expect('content-type', /application\/json/);

    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: expect.objectContaining({ code: -32700 }),
    });
  });

  it.each([
    ['parts that are not a list', 'message/send', { message: { parts: 'invalid' } }],
    [
      'a message without messageId, role and parts',
      'message/send',
      { message: { kind: 'message' } },
    ],
    ['no message', 'message/send', {}],
    ['a numeric messageId', 'message/send', { message: userMessage({ messageId: 42 }) }],
    [
      'a role that is neither user nor agent',
      'message/send',
      { message: userMessage({ role: 'robot' }) },
    ],
    ['a numeric contextId', 'message/send', { message: userMessage({ contextId: 7 }) }],
    [
      'referenceTaskIds that are not strings',
      'message/send',
      { message: userMessage({ referenceTaskIds: [1] }) },
    ],
    [
      'a blocking flag that is a string',
      'message/send',
      { message: userMessage(), configuration: { blocking: 'yes' } },
    ],
    ['parts that are not a list (streamed)', 'message/stream', { message: { parts: 'invalid' } }],
    ['a numeric task id', 'tasks/get', { id: 5 }],
    ['a negative historyLength', 'tasks/get', { id: 'some-task', historyLength: -1 }],
    ['no task id', 'tasks/cancel', {}],
    ['no task id (resubscribe)', 'tasks/resubscribe', {}],
  ])(
    'when params have %s, then -32602 invalid params and no turn runs',
    async (_case, method, params) => {
      const res = await helpdesk.http
        .post('/a2a')
        .send(rpc(method, params, 'case-1'))
        .expect(200);

      // message/stream and tasks/resubscribe answer as an event stream: its one event is the error.
      const body = res.type === 'text/event-stream' ? JSON.parse(dataLineOf(res.text)) : res.body;
      expect(body).toMatchObject({
        jsonrpc: '2.0',
        id: 'case-1',
        error: { code: -32602, data: { code: 'validation_failed' } },
      });
      expect(helpdesk.modelCalls()).toEqual([]);
    },
  );

  it('when the library refuses a call whose JSON-RPC id holds line breaks, then one log line names it, the id made plain, and nothing goes to stderr', async () => {
    const written: unknown[] = [];
    const { write } = process.stderr;
    const { error } = console;
    process.stderr.write = (chunk: unknown) => written.push(chunk) > 0;
    console.error = (...args: unknown[]) => written.push(args);
    const forged = 'x\n{"level":50,"msg":"forged line"}\r\u001b[31m' + 'y'.repeat(300);
    try {
      const res = await helpdesk.http
        .post('/a2a')
        .send(rpc('message/stream', { message: userMessage({ taskId: 'no-such-task' }) }, forged))
        .expect(200);

      expect(res.text).toContain('-32001');
      const lines = log.lines.filter((line) => line['rpc_method'] === 'message/stream');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        rpc_error: -32001,
        request_id: res.headers['x-request-id'],
      });
      const rpcId = lines[0]!['rpc_id'] as string;
      expect(rpcId).not.toMatch(/\p{Cc}/u);
      expect(rpcId.length).toBeLessThanOrEqual(64);
      expect(rpcId.startsWith('x {"level":50')).toBe(true);
      expect(written).toEqual([]);
    } finally {
      process.stderr.write = write;
      console.error = error;
    }
  });

  it('when a task is sent a 60 KB data part beside its text, then the task keeps the text and not the data', async () => {
    const big = { blob: 'z'.repeat(60_000) };
    const res = await helpdesk.http
      .post('/a2a')
      .send(
        rpc('message/send', {
          message: userMessage({
            parts: [
              { kind: 'text', text: INVOICE_QUESTION },
              { kind: 'data', data: big },
            ],
            metadata: { note: 'm'.repeat(2_000) },
          }),
        }),
      )
      .expect(200);
    const taskId = (res.body.result as Task).id;

    const task = (await client.getTask({ id: taskId, historyLength: 50 })) as Task;

    expect(task.status.state).toBe('completed');
    const [asked] = task.history ?? [];
    expect(asked).toMatchObject({
      role: 'user',
      parts: [{ kind: 'text', text: INVOICE_QUESTION }],
    });
    expect(asked?.parts).toHaveLength(1);
    expect(JSON.stringify(task).length).toBeLessThan(10_000);
  });

  it('when a client resubscribes to a task whose turn runs, then it gets the task and the rest of its events up to the final one', async () => {
    helpdesk.emulator.setLatency(300);
    const running = (await client.sendMessage({
      ...message(INVOICE_QUESTION),
      configuration: { blocking: false },
    })) as Task;

    const events = [];
    for await (const event of client.resubscribeTask({ id: running.id })) events.push(event);

    expect(events[0]).toMatchObject({ kind: 'task', id: running.id });
    const last = events.at(-1) as TaskStatusUpdateEvent;
    expect(last).toMatchObject({
      kind: 'status-update',
      final: true,
      status: { state: 'completed' },
    });
  });

  it('when a client resubscribes to a finished task, then the stream is the task alone', async () => {
    const done = (await client.sendMessage(message(INVOICE_QUESTION))) as Task;
    await waitFor(
      async () => (await client.getTask({ id: done.id })).status.state === 'completed',
      10_000,
      'the task to complete',
    );

    const events = [];
    for await (const event of client.resubscribeTask({ id: done.id })) events.push(event);

    expect(events).toEqual([
      expect.objectContaining({
        kind: 'task',
        id: done.id,
        status: expect.objectContaining({ state: 'completed' }),
      }),
    ]);
  });
});
