import { loadDemoEnv } from '../src/env.js';
import { EMULATOR_KEY, planServices } from '../src/service-plan.js';

const realShell = {
  PATH: '/usr/bin',
  LLM_A_API_KEY: 'sk-real',
  AGENT_LLM_API_KEY: 'g-real',
  LLM_A_BASE_URL: 'https://proxy.example/v1',
  DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
  PORT: '9999',
};

describe('planServices', () => {
  test('when the emulator is used, then it starts first and both apps get dummy keys and its base URLs, whatever the shell exports', () => {
    const env = loadDemoEnv({
      DEMO_EMULATOR_PORT: '4100',
      DEMO_EMAIL_PORT: '4101',
      DEMO_HELPDESK_PORT: '4102',
    });
    const [emulator, email, helpdesk] = planServices({
      mode: 'emulator',
      repoRoot: '/repo',
      env,
      inherited: realShell,
    });

    expect(emulator).toMatchObject({
      name: 'llm-emulator',
      cwd: '/repo/packages/llm-emulator',
      url: 'http://127.0.0.1:4100',
    });
    expect(emulator?.args).toEqual(['dist/cli.js', '--port', '4100', '--host', '127.0.0.1']);
    expect(email?.env).toMatchObject({
      LLM_A_API_KEY: EMULATOR_KEY,
      LLM_A_BASE_URL: 'http://127.0.0.1:4100/v1',
      PORT: '4101',
      HOST: '127.0.0.1',
      DATABASE_URL: realShell.DATABASE_URL,
    });
    expect(helpdesk?.env).toMatchObject({
      AGENT_LLM_API_KEY: EMULATOR_KEY,
      AGENT_LLM_BASE_URL: 'http://127.0.0.1:4100',
      PORT: '4102',
      HOST: '127.0.0.1',
    });
  });

  test.each(['helpdesk', 'email-review'])(
    'when the demo runs, then %s loads the sample help center unless the shell names a KB_DIR',
    (name) => {
      const env = loadDemoEnv({});
      const plan = (inherited: Record<string, string>) =>
        planServices({ mode: 'emulator', repoRoot: '/repo', env, inherited }).find(
          (service) => service.name === name,
        );

      expect(plan(realShell)?.env['KB_DIR']).toBe('/repo/packages/knowledge/sample-help-center');
      expect(plan({ ...realShell, KB_DIR: '/srv/help' })?.env['KB_DIR']).toBe('/srv/help');
      // An empty value, as .env.example exported, is unset.
      expect(plan({ ...realShell, KB_DIR: '' })?.env['KB_DIR']).toBe(
        '/repo/packages/knowledge/sample-help-center',
      );
    },
  );

  test('when the real providers are used, then no emulator starts and the keys and base URLs pass through unchanged', () => {
    const env = loadDemoEnv({});
    const services = planServices({ mode: 'real', repoRoot: '/repo', env, inherited: realShell });

    expect(services.map((service) => service.name)).toEqual(['email-review', 'helpdesk']);
    expect(services[0]?.env).toMatchObject({
      LLM_A_API_KEY: 'sk-real',
      LLM_A_BASE_URL: 'https://proxy.example/v1',
      PORT: '3001',
    });
    expect(services[1]?.env).toMatchObject({ AGENT_LLM_API_KEY: 'g-real', PORT: '3002' });
    expect(services[1]?.env.AGENT_LLM_BASE_URL).toBeUndefined();
  });
});

describe('loadDemoEnv', () => {
  test('when a demo port is not a port, then the error names the variable', () => {
    expect(() => loadDemoEnv({ DEMO_EMAIL_PORT: 'abc' })).toThrow(/^DEMO_EMAIL_PORT /);
  });

  test('when nothing is set, then the documented ports apply', () => {
    expect(loadDemoEnv({})).toMatchObject({
      DEMO_EMULATOR_PORT: 4010,
      DEMO_EMAIL_PORT: 3001,
      DEMO_HELPDESK_PORT: 3002,
    });
  });
});
