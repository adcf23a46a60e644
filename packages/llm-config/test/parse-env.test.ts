import { z } from 'zod';
import { ConfigError, countFromEnv, intFromEnv, parseEnv } from '../src/index.js';

const schema = z.object({ WAIT_MS: intFromEnv(30_000), RETRIES: countFromEnv(2) });

describe('numbers from the environment', () => {
  test('when unset or within range, then the default or the value', () => {
    expect(parseEnv(schema, {})).toEqual({ WAIT_MS: 30_000, RETRIES: 2 });
    expect(parseEnv(schema, { WAIT_MS: '2147483647', RETRIES: '0' })).toEqual({
      WAIT_MS: 2_147_483_647,
      RETRIES: 0,
    });
  });

  test.each([
    ['WAIT_MS', '2147483648'],
    ['WAIT_MS', '0'],
    ['WAIT_MS', '1.5'],
    ['RETRIES', '-1'],
    ['RETRIES', '99999999999'],
  ])(
    'when %s is %s (past what a timer takes, or not a count), then start-up refuses it by name',
    (name, value) => {
      expect(() => parseEnv(schema, { [name]: value })).toThrow(ConfigError);
      expect(() => parseEnv(schema, { [name]: value })).toThrow(new RegExp(`^${name} `));
    },
  );
});
