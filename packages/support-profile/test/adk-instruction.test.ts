import {
  BaseLlm,
  InMemoryRunner,
  LlmAgent,
  type BaseLlmConnection,
  type LlmRequest,
  type LlmResponse,
} from '@google/adk';
import { adkInstruction, DEFAULT_PROFILE, loadPrompts } from '../src/index.js';

/** A model that answers "ok" and keeps the system instruction ADK sent it. */
class RecordingModel extends BaseLlm {
  readonly instructions: string[] = [];
  constructor() {
    super({ model: 'recording' });
  }
  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.instructions.push(JSON.stringify(request.config?.systemInstruction ?? ''));
    yield { content: { role: 'model', parts: [{ text: 'ok' }] } };
  }
  connect(): Promise<BaseLlmConnection> {
    return Promise.reject(new Error('no live connection'));
  }
}

/** Runs one turn of an agent with `instruction`; what the model received, or the error the turn ended with. */
async function oneTurn(instruction: string | (() => string)): Promise<string> {
  const model = new RecordingModel();
  const runner = new InMemoryRunner({
    agent: new LlmAgent({ name: 'billing', model, instruction }),
    appName: 'support-profile-test',
  });
  const session = await runner.sessionService.createSession({
    appName: 'support-profile-test',
    userId: 'u',
  });
  try {
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: { role: 'user', parts: [{ text: 'Hello' }] },
    })) {
      if (event.errorMessage) return `error: ${event.errorMessage}`;
    }
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
  return model.instructions.join('\n');
}

// A profile's text reaches helpdesk's agents; ADK 1.2.0 reads `{name}` in a string instruction as session state.
const WITH_BRACES = 'Our {beta} plan costs less. {"json": true}';

describe('helpdesk instructions and ADK placeholders', () => {
  test('when an instruction string holds {beta}, then ADK 1.2.0 fails the turn looking for session state', async () => {
    expect(await oneTurn(WITH_BRACES)).toMatch(/error: .*Context variable not found: `beta`/);
  });

  test('when it is passed through adkInstruction, then the model receives it exactly as written', async () => {
    expect(await oneTurn(adkInstruction(WITH_BRACES))).toContain(
      JSON.stringify(WITH_BRACES).slice(1, -1),
    );
  });

  test('when the default billing instruction is passed through adkInstruction, then it reaches the model unchanged', async () => {
    const { billing } = loadPrompts(DEFAULT_PROFILE);
    expect(await oneTurn(adkInstruction(billing))).toContain(JSON.stringify(billing).slice(1, -1));
  });
});
