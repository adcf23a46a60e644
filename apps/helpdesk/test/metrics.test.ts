import { metricSample } from '@repo/http-kit';
import {
  INVOICE_QUESTION,
  PROVIDERS,
  startHelpdesk,
  waitFor,
  type HelpdeskUnderTest,
} from './support/harness.js';

const TOKEN = 'metrics-test-token';

describe.each(PROVIDERS)('GET /metrics (%s)', (provider) => {
  let helpdesk: HelpdeskUnderTest;

  beforeAll(async () => {
    helpdesk = await startHelpdesk({
      provider,
      apiToken: TOKEN,
      metrics: {},
      model: { maxRetries: 0 },
      chat: { maxQueuedPerSession: 1 },
    });
  });
  afterAll(async () => {
    await helpdesk?.close();
  });

  const scrape = async () => {
    const res = await helpdesk.http.get('/metrics').auth(TOKEN, { type: 'bearer' });
    expect(res.status).toBe(200);
    return res.text;
  };
  const send = (sessionId: string, message: string) =>
    helpdesk.send(sessionId, message).auth(TOKEN, { type: 'bearer' });

  test('when the token is missing, then /metrics answers 401', async () => {
    expect((await helpdesk.http.get('/metrics')).status).toBe(401);
  });

  test('when a known sequence runs, then every counter moves by exactly its share', async () => {
    const before = await scrape();
    const callsBefore = helpdesk.modelCalls().length;

    // 1. A billing question, its first model call held back a second…
    helpdesk.emulator.faults.add({ provider, count: 1, kind: 'delay', delayMs: 1_000 });
    const answered = send('metrics-a', INVOICE_QUESTION).then((res) => res);
    await waitFor(() => helpdesk.modelCalls().length === callsBefore + 1, 5_000, 'the first call');
    // 2. …while a second message to the same session is refused: 429.
    const refused = await send('metrics-a', INVOICE_QUESTION);
    expect(refused.status).toBe(429);
    expect((await answered).status).toBe(200);
    // 3. A turn whose first model call fails (no retries here): 502 model_error.
    helpdesk.emulator.faults.add({ provider, count: 1, kind: 'status', status: 500 });
    const failed = await send('metrics-b', INVOICE_QUESTION);
    expect(failed.status).toBe(502);
    expect(failed.body.code).toBe('model_error');

    const text = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      metricSample(text, name, labels) - metricSample(before, name, labels);
    const chat = { method: 'POST', route: '/chat' };
    expect(moved('http_requests_total', { ...chat, status: '200' })).toBe(1);
    expect(moved('http_requests_total', { ...chat, status: '429' })).toBe(1);
    expect(moved('http_requests_total', { ...chat, status: '502' })).toBe(1);
    expect(moved('helpdesk_session_busy_total')).toBe(1);
    expect(moved('helpdesk_turns_total', { agent: 'billing' })).toBe(1);
    expect(moved('helpdesk_turns_total')).toBe(1);
    expect(moved('helpdesk_turns_failed_total', { code: 'model_error' })).toBe(1);
    expect(moved('helpdesk_transfers_total', { from: 'coordinator', to: 'billing' })).toBe(1);
    expect(moved('helpdesk_transfers_total')).toBe(1);
    expect(moved('helpdesk_tool_calls_total', { tool: 'lookup_invoice', outcome: 'ok' })).toBe(1);
    expect(moved('helpdesk_tool_calls_total')).toBe(1);
    // Every call the emulator saw is counted once: all answered but the one that failed.
    const calls = helpdesk.modelCalls().length - callsBefore;
    const model = { provider };
    expect(moved('llm_calls_total', { ...model, outcome: 'ok' })).toBe(calls - 1);
    expect(moved('llm_calls_total', { ...model, outcome: 'error' })).toBe(1);
    expect(moved('llm_call_duration_seconds_count', model)).toBe(calls);
    expect(moved('llm_tokens_total', { ...model, direction: 'input' })).toBeGreaterThan(0);
    expect(moved('llm_tokens_total', { ...model, direction: 'output' })).toBeGreaterThan(0);
    expect(metricSample(text, 'helpdesk_sessions')).toBe(await helpdesk.chat.countSessions());
    expect(metricSample(text, 'helpdesk_sessions')).toBeGreaterThan(0);
  }, 30_000);
});
