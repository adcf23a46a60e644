import { startEmulator, type Emulator } from '@repo/llm-emulator';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cassette, requestKey } from '../src/cassettes/cassette.js';
import { ProviderProxy } from '../src/cassettes/provider-proxy.js';
import { scratchDir } from './support/scratch.js';

const chatRequest = (content: string) => ({
  model: 'gpt-4.1-mini',
  messages: [{ role: 'user', content }],
});

async function ask(url: string, content: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer service-side-dummy',
      ...headers,
    },
    body: JSON.stringify(chatRequest(content)),
  });
  return { status: res.status, body: await res.text() };
}

describe('cassette proxy', () => {
  let emulator: Emulator;
  const file = join(scratchDir('eval-cassette-'), 'openai.jsonl');

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, latencyMs: 0 });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it('when recording, then the answer passes through with the real key and is stored without any key', async () => {
    const cassette = new Cassette(file);
    const proxy = await new ProviderProxy({
      wire: 'openai',
      mode: 'record',
      upstream: `${emulator.url}/v1`,
      apiKey: 'sk-real-secret',
      cassette,
    }).start();
    try {
      const answer = await ask(proxy.url, 'What is your refund window?');
      expect(answer.status).toBe(200);
      expect(proxy.calls[0]!.usage?.prompt).toBeGreaterThan(0);
    } finally {
      await proxy.stop();
    }
    cassette.save();
    const stored = readFileSync(file, 'utf8');
    expect(stored).toContain('refund window');
    expect(stored).not.toContain('sk-real-secret');
    expect(stored).not.toContain('service-side-dummy');
  });

  it('when replaying with the provider gone, then a recorded request gets the recorded answer and an unknown one a 400 miss', async () => {
    await emulator.close();
    const proxy = await new ProviderProxy({
      wire: 'openai',
      mode: 'replay',
      cassette: Cassette.load(file),
    }).start();
    try {
      const recorded = JSON.parse(readFileSync(file, 'utf8').trim()) as {
        responses: Array<{ body: string }>;
      };
      const answer = await ask(proxy.url, 'What is your refund window?', {
        authorization: 'Bearer other',
      });
      expect(answer).toEqual({ status: 200, body: recorded.responses[0]!.body });
      const miss = await ask(proxy.url, 'Something never recorded');
      expect(miss.status).toBe(400);
      expect(proxy.calls.map((c) => c.miss)).toEqual([false, true]);
    } finally {
      await proxy.stop();
    }
  });

  it('when a request differs only in key order, an API key in the query or a ticket id, then its key is the same', () => {
    const a = requestKey('POST', '/v1beta/models/m:generateContent?key=abc', {
      b: 1,
      a: 'ticket TCK-AB12CD34',
    });
    const b = requestKey('post', '/v1beta/models/m:generateContent', {
      a: 'ticket TCK-ZZ99YY88',
      b: 1,
    });
    expect(a).toBe(b);
    expect(requestKey('POST', '/x', { a: 1 })).not.toBe(requestKey('POST', '/x', { a: 2 }));
  });
});
