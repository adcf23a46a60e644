import { DEFAULT_GEMINI_MODEL, loadGeminiSettings } from '../src/index.js';

describe('loadGeminiSettings', () => {
  test('when only the key is set, then the documented defaults apply', () => {
    expect(loadGeminiSettings({ AGENT_LLM_API_KEY: 'g-key' })).toEqual({
      apiKey: 'g-key',
      model: DEFAULT_GEMINI_MODEL,
      appName: 'helpdesk',
      timeoutMs: 30_000,
      maxRetries: 2,
    });
    expect(DEFAULT_GEMINI_MODEL).toBe('gemini-2.5-flash');
  });

  test('when the base URL and app name are set, then both are read', () => {
    const settings = loadGeminiSettings({
      AGENT_LLM_API_KEY: 'g-key',
      AGENT_LLM_BASE_URL: 'http://127.0.0.1:4010',
      AGENT_APP_NAME: 'support-desk',
    });
    expect(settings.baseUrl).toBe('http://127.0.0.1:4010');
    expect(settings.appName).toBe('support-desk');
  });

  test('when the key is missing, then the error names AGENT_LLM_API_KEY', () => {
    expect(() => loadGeminiSettings({ AGENT_LLM_MODEL: 'gemini-2.5-pro' })).toThrow(
      /^AGENT_LLM_API_KEY is required$/,
    );
  });
});
