import { ConfigError, DEFAULT_OPENAI_MODEL, loadOpenAiSettings } from '../src/index.js';

describe('loadOpenAiSettings', () => {
  test('when only the key is set, then the documented defaults apply', () => {
    expect(loadOpenAiSettings({ LLM_A_API_KEY: 'sk-test' })).toEqual({
      apiKey: 'sk-test',
      model: DEFAULT_OPENAI_MODEL,
      timeoutMs: 30_000,
      maxRetries: 2,
    });
  });

  test('when every variable is set, then each is read', () => {
    const settings = loadOpenAiSettings({
      LLM_A_API_KEY: 'sk-test',
      LLM_A_MODEL: 'gpt-x',
      LLM_A_BASE_URL: 'http://127.0.0.1:4010/v1',
      LLM_A_TIMEOUT_MS: '5000',
      LLM_A_MAX_RETRIES: '0',
    });
    expect(settings).toEqual({
      apiKey: 'sk-test',
      model: 'gpt-x',
      baseURL: 'http://127.0.0.1:4010/v1',
      timeoutMs: 5000,
      maxRetries: 0,
    });
  });

  test.each([
    ['missing', {}],
    ['empty', { LLM_A_API_KEY: '' }],
    ['blank', { LLM_A_API_KEY: '   ' }],
  ])('when the key is %s, then a ConfigError names LLM_A_API_KEY', (_label, env) => {
    expect(() => loadOpenAiSettings(env)).toThrow(ConfigError);
    expect(() => loadOpenAiSettings(env)).toThrow(/^LLM_A_API_KEY is required$/);
  });

  test('when the base URL is not a URL, then the error names LLM_A_BASE_URL', () => {
    expect(() => loadOpenAiSettings({ LLM_A_API_KEY: 'k', LLM_A_BASE_URL: 'localhost' })).toThrow(
      /^LLM_A_BASE_URL /,
    );
  });

  test('when the timeout is not a positive integer, then the error names LLM_A_TIMEOUT_MS', () => {
    expect(() => loadOpenAiSettings({ LLM_A_API_KEY: 'k', LLM_A_TIMEOUT_MS: 'soon' })).toThrow(
      /^LLM_A_TIMEOUT_MS /,
    );
  });
});
