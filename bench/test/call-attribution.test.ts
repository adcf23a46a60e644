import { callsByTag, callTag } from '../src/emulator/call-attribution.js';
import type { EmulatorRequest } from '../src/emulator/emulator-process.js';

const gemini = (contents: unknown[]): EmulatorRequest => ({
  provider: 'gemini',
  path: '/v1beta/models/m:generateContent',
  body: { contents },
  status: 200,
  at: '',
});
const openai = (messages: unknown[]): EmulatorRequest => ({
  provider: 'openai',
  path: '/v1/chat/completions',
  body: { messages },
  status: 200,
  at: '',
});

describe('model call attribution', () => {
  it('when a Gemini request carries earlier turns, then the call belongs to the last user text', () => {
    const request = gemini([
      { role: 'user', parts: [{ text: 'first (ref c1-t1)' }] },
      { role: 'model', parts: [{ text: 'answer' }] },
      { role: 'user', parts: [{ text: 'second (ref c1-t2)' }] },
      { role: 'model', parts: [{ functionCall: { name: 'lookup_invoice' } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'lookup_invoice' } }] },
    ]);
    expect(callTag(request)).toBe('c1-t2');
  });

  it('when an OpenAI request has the inbound email, then the call belongs to its Ref tag', () => {
    expect(
      callTag(
        openai([
          { role: 'system', content: 'x' },
          { role: 'user', content: 'Hello\n\nRef: r1-s3-em-4' },
        ]),
      ),
    ).toBe('r1-s3-em-4');
  });

  it('when calls are counted, then each tag gets its own number and untagged calls are ignored', () => {
    const counts = callsByTag([
      openai([{ role: 'user', content: 'Ref: a' }]),
      openai([{ role: 'user', content: 'Ref: a' }]),
      openai([{ role: 'user', content: 'Ref: b' }]),
      openai([{ role: 'user', content: 'no tag' }]),
    ]);
    expect([...counts.entries()]).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
  });
});
