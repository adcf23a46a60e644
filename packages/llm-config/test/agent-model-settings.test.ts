import {
  DEFAULT_GEMINI_MODEL,
  DEFAULT_OPENAI_MODEL,
  loadAgentModelSettings,
} from '../src/index.js';

describe('loadAgentModelSettings', () => {
  test('when no provider is set, then the agents run on Gemini with its default model', () => {
    expect(loadAgentModelSettings({ AGENT_LLM_API_KEY: 'g-key' })).toEqual({
      provider: 'gemini',
      apiKey: 'g-key',
      model: DEFAULT_GEMINI_MODEL,
      appName: 'helpdesk',
      timeoutMs: 30_000,
      maxRetries: 2,
    });
  });

  test('when the provider is openai, then the same variables are read with an OpenAI default model', () => {
    const settings = loadAgentModelSettings({
      AGENT_LLM_PROVIDER: 'openai',
      AGENT_LLM_API_KEY: 'o-key',
      AGENT_LLM_BASE_URL: 'http://localhost:11434/v1',
      AGENT_LLM_MAX_RETRIES: '0',
    });
    expect(settings).toMatchObject({
      provider: 'openai',
      apiKey: 'o-key',
      model: DEFAULT_OPENAI_MODEL,
      baseUrl: 'http://localhost:11434/v1',
      maxRetries: 0,
    });
  });

  test('when the provider is openai and a model is named, then that model is used', () => {
    const settings = loadAgentModelSettings({
      AGENT_LLM_PROVIDER: 'openai',
      AGENT_LLM_API_KEY: 'o-key',
      AGENT_LLM_MODEL: 'llama3.1:8b',
    });
    expect(settings.model).toBe('llama3.1:8b');
  });

  test('when the provider is unknown, then the error names AGENT_LLM_PROVIDER', () => {
    expect(() =>
      loadAgentModelSettings({ AGENT_LLM_PROVIDER: 'anthropic', AGENT_LLM_API_KEY: 'k' }),
    ).toThrow(/^AGENT_LLM_PROVIDER /);
  });
});
