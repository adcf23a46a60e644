import { FunctionCallingConfigMode, GoogleGenAI, Type } from '@google/genai';
import { startEmulator, type Emulator } from '../src/index.js';

let emu: Emulator;
let ai: GoogleGenAI;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: emu.url } });
});
afterAll(() => emu.close());
beforeEach(() => emu.requests.clear());

const statusTool = {
  name: 'check_service_status',
  description: 'Check whether a service is up or down',
  parameters: {
    type: Type.OBJECT,
    properties: { service: { type: Type.STRING } },
    required: ['service'],
  },
};

describe('@google/genai SDK: generateContent', () => {
  it('when text is generated, then it quotes the user and reports usage metadata', async () => {
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'My invoice shows a charge I do not recognise. What is it for?',
      config: { systemInstruction: 'You are a helpful support assistant.' },
    });
    expect(response.text).toContain('My invoice shows a charge I do not recognise.');
    expect(response.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
    expect(response.usageMetadata?.totalTokenCount).toBe(
      (response.usageMetadata?.promptTokenCount ?? 0) +
        (response.usageMetadata?.candidatesTokenCount ?? 0),
    );
    expect(emu.requests.list()).toEqual([
      expect.objectContaining({
        provider: 'gemini',
        path: '/v1beta/models/gemini-2.5-flash:generateContent',
        model: 'gemini-2.5-flash',
        status: 200,
      }),
    ]);
  });

  it('when functions are declared with `parameters`, then the matching function is called with arguments from the text', async () => {
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Is the API down? Requests keep timing out.',
      config: {
        tools: [
          {
            functionDeclarations: [
              {
                name: 'lookup_invoice',
                description: 'Look up an invoice',
                parameters: { type: Type.OBJECT, properties: { id: { type: Type.STRING } } },
              },
              statusTool,
            ],
          },
        ],
      },
    });
    expect(response.functionCalls).toEqual([
      expect.objectContaining({ name: 'check_service_status', args: { service: 'api' } }),
    ]);
  });

  it('when a function is declared with `parametersJsonSchema` and calling is forced, then it is called', async () => {
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'hello',
      config: {
        tools: [
          {
            functionDeclarations: [
              {
                name: 'create_ticket',
                description: 'Create a ticket',
                parametersJsonSchema: {
                  type: 'object',
                  properties: { priority: { type: 'string', enum: ['low', 'high'] } },
                  required: ['priority'],
                },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } },
      },
    });
    expect(response.functionCalls).toEqual([
      expect.objectContaining({ name: 'create_ticket', args: { priority: 'low' } }),
    ]);
  });

  it('when the function response is sent back, then the answer states the result', async () => {
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: [
        { role: 'user', parts: [{ text: 'I want to complain to a manager!' }] },
        {
          role: 'model',
          parts: [{ functionCall: { name: 'create_ticket', args: { priority: 'high' } } }],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'create_ticket', response: { ticketId: 'ESC-31' } } },
          ],
        },
      ],
      config: {
        tools: [
          { functionDeclarations: [{ name: 'create_ticket', description: 'Create a ticket' }] },
        ],
      },
    });
    expect(response.text).toContain('ESC-31');
  });

  it('when a response schema is given, then the JSON output matches it', async () => {
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'I am furious, nobody answers my emails. I want a human now!',
      config: {
        responseMimeType: 'application/json',
        responseSchema: {
          type: Type.OBJECT,
          properties: {
            route: { type: Type.STRING, enum: ['billing', 'technical', 'escalation'] },
            confidence: { type: Type.NUMBER },
          },
          required: ['route', 'confidence'],
        },
      },
    });
    expect(JSON.parse(response.text ?? '')).toEqual({ route: 'escalation', confidence: 0.9 });
  });

  it('when streaming, then the chunks rebuild the text and the last carries usage', async () => {
    const stream = await ai.models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: 'The login page shows an error since this morning.',
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.text ?? '').join('')).toContain(
      'The login page shows an error since this morning.',
    );
    expect(chunks.at(-1)?.usageMetadata?.candidatesTokenCount).toBeGreaterThan(0);
    expect(emu.requests.list()[0]?.path).toBe(
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent',
    );
  });

  it('when a function call is streamed, then the SDK exposes it', async () => {
    const stream = await ai.models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: 'Is the database down?',
      config: { tools: [{ functionDeclarations: [statusTool] }] },
    });
    const calls = [];
    for await (const chunk of stream) calls.push(...(chunk.functionCalls ?? []));
    expect(calls).toEqual([
      expect.objectContaining({ name: 'check_service_status', args: { service: 'database' } }),
    ]);
  });
});
