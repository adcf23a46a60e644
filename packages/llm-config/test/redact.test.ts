import { REDACTED, redactSecrets } from '../src/index.js';

describe('redactSecrets', () => {
  test('when a config holds keys, tokens and URL passwords, then none of them survive', () => {
    const config = {
      LLM_A_API_KEY: 'sk-very-secret',
      API_TOKEN: 'tok-123',
      nested: { clientSecret: 's3cr3t', model: 'gpt-4.1-mini' },
      DATABASE_URL: 'postgres://app:hunter2@db:5432/mail',
    };
    const redacted = redactSecrets(config);
    const text = JSON.stringify(redacted);
    for (const secret of ['sk-very-secret', 'tok-123', 's3cr3t', 'hunter2']) {
      expect(text).not.toContain(secret);
    }
    expect(redacted.LLM_A_API_KEY).toBe(REDACTED);
    expect(redacted.nested.model).toBe('gpt-4.1-mini');
    expect(redacted.DATABASE_URL).toContain('@db:5432/mail');
  });

  test('when the input is redacted, then the original object is left untouched', () => {
    const config = { apiKey: 'k1' };
    redactSecrets(config);
    expect(config.apiKey).toBe('k1');
  });
});
