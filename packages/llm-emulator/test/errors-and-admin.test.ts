import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { startEmulator, type Emulator } from '../src/index.js';

let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());
beforeEach(() => {
  emu.faults.clear();
  emu.requests.clear();
});

const chatBody = JSON.stringify({
  model: 'gpt-4.1-mini',
  messages: [{ role: 'user', content: 'hi' }],
});
const geminiBody = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${emu.url}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('provider errors in each provider shape', () => {
  it('when the OpenAI key is missing, then 401 in the OpenAI error shape', async () => {
    const res = await post('/v1/chat/completions', chatBody);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: {
        message: expect.any(String) as unknown,
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
  });

  it('when the Gemini key is missing, then 401 in the Google error shape', async () => {
    const res = await post('/v1beta/models/gemini-2.5-flash:generateContent', geminiBody);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: { code: 401, message: expect.any(String) as unknown, status: 'UNAUTHENTICATED' },
    });
  });

  it('when the Gemini key is given as ?key=, then the request is accepted', async () => {
    const res = await post('/v1beta/models/gemini-2.5-flash:generateContent?key=abc', geminiBody);
    expect(res.status).toBe(200);
  });

  it('when an unknown OpenAI path is called, then 404 in the OpenAI shape, also through the SDK', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${emu.url}/v1`, maxRetries: 0 });
    await expect(
      client.embeddings.create({ model: 'text-embedding-3-small', input: 'x' }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const res = await post('/v1/nope', '{}', { authorization: 'Bearer k' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe(
      'invalid_request_error',
    );
  });

  it('when an unknown Gemini path is called, then 404 in the Google shape', async () => {
    const res = await post('/v1beta/models/gemini-2.5-flash:countTokens', geminiBody, {
      'x-goog-api-key': 'k',
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe('NOT_FOUND');
  });

  it('when the OpenAI body is not JSON or misses messages, then 400 in the OpenAI shape', async () => {
    const notJson = await post('/v1/chat/completions', '{"model":', { authorization: 'Bearer k' });
    expect(notJson.status).toBe(400);
    const noMessages = await post('/v1/chat/completions', '{"model":"m"}', {
      authorization: 'Bearer k',
    });
    expect(noMessages.status).toBe(400);
    expect(((await noMessages.json()) as { error: { message: string } }).error.message).toContain(
      'messages',
    );
    const client = new OpenAI({ apiKey: 'k', baseURL: `${emu.url}/v1`, maxRetries: 0 });
    await expect(
      client.chat.completions.create({ model: 'm', messages: [] }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });

  it('when the Gemini body is malformed, then 400 INVALID_ARGUMENT, also through the SDK', async () => {
    const res = await post('/v1beta/models/gemini-2.5-flash:generateContent', '{"contents": 3}', {
      'x-goog-api-key': 'k',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe(
      'INVALID_ARGUMENT',
    );
    const ai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: emu.url } });
    const badPart = { text: 42 } as unknown as { text: string };
    await expect(
      ai.models.generateContent({
        model: 'gemini-2.5-flash',
        contents: [{ role: 'user', parts: [badPart] }],
      }),
    ).rejects.toMatchObject({
      status: 400,
    });
  });

  it('when requests are rejected, then they are logged with their status and do not consume faults', async () => {
    emu.faults.add({ provider: 'openai', count: 1, kind: 'status', status: 500 });
    await post('/v1/chat/completions', chatBody);
    expect(emu.requests.list().map((r) => r.status)).toEqual([401]);
    expect(emu.faults.list()).toHaveLength(1);
  });
});

describe('admin API over HTTP', () => {
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${emu.url}/_emulator/${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('when a fault is posted, then the next matching SDK call sees it and the log lists both calls', async () => {
    const created = await admin('POST', 'faults', {
      provider: 'openai',
      count: 1,
      kind: 'status',
      status: 503,
    });
    expect(created.status).toBe(201);
    const client = new OpenAI({ apiKey: 'k', baseURL: `${emu.url}/v1`, maxRetries: 1 });
    await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const log = (await (await admin('GET', 'requests')).json()) as Array<{
      status: number;
      provider: string;
    }>;
    expect(log.map((r) => [r.provider, r.status])).toEqual([
      ['openai', 503],
      ['openai', 200],
    ]);
  });

  it('when faults and requests are deleted, then both are empty', async () => {
    await admin('POST', 'faults', [{ kind: 'hang' }, { kind: 'malformed', provider: 'gemini' }]);
    await post('/v1/chat/completions', chatBody);
    expect((await admin('DELETE', 'faults')).status).toBe(204);
    expect((await admin('DELETE', 'requests')).status).toBe(204);
    expect(await (await admin('GET', 'faults')).json()).toEqual([]);
    expect(await (await admin('GET', 'requests')).json()).toEqual([]);
  });

  it('when an invalid fault is posted, then 400 and nothing is queued', async () => {
    const res = await admin('POST', 'faults', { kind: 'explode' });
    expect(res.status).toBe(400);
    expect(emu.faults.list()).toEqual([]);
  });

  it('when latency is set over HTTP, then it is reported back', async () => {
    const res = await admin('PUT', 'latency', { latencyMs: 5 });
    expect(await res.json()).toEqual({ latencyMs: 5, chunkIntervalMs: 0 });
    await admin('PUT', 'latency', { latencyMs: 0 });
  });

  it('when a chunk interval is set over HTTP, then a streamed answer arrives in several reads, whole', async () => {
    const set = await admin('PUT', 'latency', { latencyMs: 0, chunkIntervalMs: 40 });
    expect(await set.json()).toEqual({ latencyMs: 0, chunkIntervalMs: 40 });
    try {
      const res = await post(
        '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
        JSON.stringify({
          contents: [
            {
              role: 'user',
              parts: [
                { text: 'Please write me a long and friendly greeting with many words in it.' },
              ],
            },
          ],
        }),
        { 'x-goog-api-key': 'k' },
      );
      const reads: string[] = [];
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
        reads.push(decoder.decode(chunk, { stream: true }));
      const events = reads.join('').split('\n\n').filter(Boolean);
      expect(events.length).toBeGreaterThan(2);
      // Written 40 ms apart, the events cannot all arrive in one read.
      expect(reads.length).toBeGreaterThan(1);
    } finally {
      await admin('PUT', 'latency', { latencyMs: 0, chunkIntervalMs: 0 });
    }
  });
});
