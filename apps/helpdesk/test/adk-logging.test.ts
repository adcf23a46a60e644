import { Writable } from 'node:stream';
import { getLogger } from '@google/adk';
import { pino } from 'pino';
import { routeAdkLogsTo } from '../src/agents/adk-logging.js';
import { createLogger } from '@repo/http-kit';

function capture(level: string) {
  const lines: Array<{
    level: number;
    component?: string;
    msg: string;
    err?: { message?: string; type?: string };
    details?: unknown[];
  }> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

describe("ADK's logging", () => {
  afterAll(() => routeAdkLogsTo(createLogger({ name: 'helpdesk-test', level: 'silent' })));

  it('when ADK logs at info (user text included), then the service logs it at debug only', () => {
    const { logger, lines } = capture('info');
    routeAdkLogsTo(logger);

    getLogger().info('event:', '{"text":"my card number is 4111"}');
    getLogger().warn('Event from an unknown agent');

    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      component: 'adk',
      msg: 'Event from an unknown agent',
    });
  });

  it('when LOG_LEVEL is debug, then ADK info lines appear at debug', () => {
    const { logger, lines } = capture('debug');
    routeAdkLogsTo(logger);

    getLogger().info('Sending out request, model: gemini-2.5-flash');

    expect(lines).toMatchObject([
      { level: 20, component: 'adk', msg: 'Sending out request, model: gemini-2.5-flash' },
    ]);
  });

  it('when ADK logs objects and errors, then they are logged as structured fields, not "[object Object]"', () => {
    const { logger, lines } = capture('info');
    routeAdkLogsTo(logger);

    getLogger().warn('Tool result', { tool: 'lookup_invoice', found: false });
    getLogger().error('Model call failed:', new Error('boom'), { attempt: 2 });

    expect(JSON.stringify(lines)).not.toContain('[object Object]');
    expect(lines[0]).toMatchObject({
      level: 40,
      msg: 'Tool result',
      details: [{ tool: 'lookup_invoice', found: false }],
    });
    expect(lines[1]).toMatchObject({
      level: 50,
      msg: 'Model call failed:',
      err: { message: 'boom', type: 'Error' },
      details: [{ attempt: 2 }],
    });
  });

  it("when ADK warns that one of its own methods is experimental, then the service logs it at debug only (ADK's runner calls them itself on every first chat)", () => {
    const { logger, lines } = capture('info');
    routeAdkLogsTo(logger);

    getLogger().warn(
      'Method BasePlugin.beforeToolSelection is experimental and may change in the future.',
    );
    getLogger().warn('Class RoutedAgent is experimental and may change in the future.');

    expect(lines).toEqual([]);
  });
});
