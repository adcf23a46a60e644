import { loadSettings } from '../src/settings.js';

describe('settings', () => {
  it('when nothing is given, then the suite runs against the emulator it starts', () => {
    expect(loadSettings({}).mode).toBe('emulator');
    expect(loadSettings({ EVAL_REPLAY: '1' }).mode).toBe('replay');
  });

  it('when a real provider is half given, then the missing wire is named', () => {
    expect(() => loadSettings({ EVAL_OPENAI_API_KEY: 'sk' })).toThrow(
      /EVAL_GEMINI_API_KEY or EVAL_GEMINI_BASE_URL/,
    );
    expect(() => loadSettings({ EVAL_GEMINI_API_KEY: 'g' })).toThrow(
      /EVAL_OPENAI_API_KEY or EVAL_OPENAI_BASE_URL/,
    );
    expect(loadSettings({ EVAL_OPENAI_API_KEY: 'sk', EVAL_HELPDESK_PROVIDER: 'openai' }).mode).toBe(
      'real',
    );
  });

  it('when recording a part of the suite or recording and replaying at once, then it is refused', () => {
    expect(() => loadSettings({ EVAL_RECORD: '1', EVAL_ONLY: 'chat' })).toThrow(
      /records the whole suite/,
    );
    expect(() => loadSettings({ EVAL_RECORD: '1', EVAL_REPLAY: '1' })).toThrow(/choose one/);
    expect(() => loadSettings({ EVAL_CASSETTE: '../x' })).toThrow(/EVAL_CASSETTE/);
  });
});
