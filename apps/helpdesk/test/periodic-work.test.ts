import { createLogger } from '@repo/http-kit';
import { createHelpdesk } from '../src/helpdesk.js';
import { freePort } from './support/own-cluster.js';

describe('periodic work', () => {
  it('when the session database is away, then the idle sweep adds no line per tick (the outage is logged once, by the database guard)', async () => {
    const lines: string[] = [];
    const helpdesk = createHelpdesk({
      model: {
        apiKey: 'test-key',
        model: 'gemini-2.5-flash',
        baseUrl: 'http://127.0.0.1:9',
        timeoutMs: 1_000,
        maxRetries: 0,
      },
      logger: createLogger({
        name: 'helpdesk-test',
        level: 'info',
        destination: { write: (line: string) => void lines.push(line) },
      }),
      database: {
        connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/test`,
        schema: 'hd_never_set_up',
        poolMax: 2,
        connectTimeoutMs: 200,
      },
      chat: { sessionTtlMs: 50 },
    });
    try {
      helpdesk.startSweep();
      await new Promise((resolve) => setTimeout(resolve, 600));

      expect(lines.filter((line) => line.includes('session sweep failed'))).toEqual([]);
    } finally {
      await helpdesk.close();
    }
  });
});
