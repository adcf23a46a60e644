import { cliOptions } from '../src/cli-options.js';

describe('CLI options', () => {
  it('when nothing is given, then it listens on 127.0.0.1:4010 with no latency', () => {
    expect(cliOptions([], {})).toEqual({ port: 4010, host: '127.0.0.1', latencyMs: 0 });
  });

  it('when env and flags are both given, then flags win', () => {
    const env = { EMULATOR_PORT: '5000', EMULATOR_LATENCY_MS: '20' };
    expect(cliOptions(['--port', '0', '--host', '0.0.0.0'], env)).toEqual({
      port: 0,
      host: '0.0.0.0',
      latencyMs: 20,
    });
  });

  it('when the port is not a number, then it fails', () => {
    expect(() => cliOptions(['--port', 'abc'], {})).toThrow();
  });
});
