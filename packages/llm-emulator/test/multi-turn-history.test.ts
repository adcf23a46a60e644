import { readFileSync } from 'node:fs';
import { startEmulator, type Emulator } from '../src/index.js';

// Real request bodies captured from apps/helpdesk (ADK 1.2.0) on later turns of one session: the history
// holds earlier questions, the specialists' own replies (role "model") and other agents' replies that ADK
// rewrote as "For context:" user text.
interface Part {
  text?: string;
  functionCall?: { name: string; args: Record<string, unknown> };
}
interface GeminiBody {
  contents: Array<{ role: string; parts: Part[] }>;
}
const fixture = JSON.parse(
  readFileSync(new URL('./fixtures/helpdesk-later-turns.json', import.meta.url), 'utf8'),
) as {
  turns: Array<{ message: string; requests: GeminiBody[] }>;
};

function turn(message: string): {
  coordinator: GeminiBody;
  specialist: GeminiBody;
  afterTool: GeminiBody;
} {
  const found = fixture.turns.find((t) => t.message === message);
  const [coordinator, specialist, afterTool] = found?.requests ?? [];
  if (!coordinator || !specialist || !afterTool)
    throw new Error(`fixture has no complete turn for ${message}`);
  return { coordinator, specialist, afterTool };
}

let emu: Emulator;

async function generate(body: GeminiBody): Promise<Part[]> {
  const res = await fetch(`${emu.url}/v1beta/models/gemini-2.5-flash:generateContent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'test-key' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  const json = (await res.json()) as { candidates: Array<{ content: { parts: Part[] } }> };
  return json.candidates[0]?.content.parts ?? [];
}

async function calledTool(
  body: GeminiBody,
): Promise<{ name: string; args: Record<string, unknown> } | undefined> {
  return (await generate(body)).find((p) => p.functionCall)?.functionCall;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());

describe('a later turn of a multi-turn ADK session', () => {
  it('when the history holds an earlier question and reply, then the fixture really carries them', () => {
    const { specialist } = turn('Does invoice INV-1002 include VAT?');
    const texts = specialist.contents.flatMap((c) =>
      c.parts.map((p) => `${c.role}: ${p.text ?? ''}`),
    );
    expect(texts).toContain('user: What is the status of invoice INV-1001?');
    expect(texts.some((t) => t.startsWith('model: ') && t.includes('INV-1001'))).toBe(true);
    expect(texts).toContain('user: For context:');
  });

  it('when a follow-up invoice question uses a feedback word ("include"), then billing looks up that invoice, not the first one', async () => {
    const { coordinator, specialist } = turn('Does invoice INV-1002 include VAT?');
    expect(await calledTool(coordinator)).toEqual({
      name: 'transfer_to_agent',
      args: { agentName: 'billing' },
    });
    expect(await calledTool(specialist)).toEqual({
      name: 'lookup_invoice',
      args: { invoice_id: 'INV-1002' },
    });
  });

  it('when a service question says "please state the message", then it goes to technical for that service', async () => {
    const { coordinator, specialist } = turn(
      'Is the email service down? Please state the message.',
    );
    expect(await calledTool(coordinator)).toEqual({
      name: 'transfer_to_agent',
      args: { agentName: 'technical' },
    });
    expect(await calledTool(specialist)).toEqual({
      name: 'check_service_status',
      args: { service: 'email' },
    });
  });

  it("when the specialist gets its tool result, then the final answer states that turn's result", async () => {
    const parts = await generate(turn('Does invoice INV-1002 include VAT?').afterTool);
    const text = parts.map((p) => p.text ?? '').join('');
    expect(text).toContain('INV-1002');
    expect(text).not.toContain('INV-1001');
  });
});
