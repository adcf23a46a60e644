import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadSupportConfig } from '@repo/support-profile';
import {
  callerOf,
  HUMAN_REQUEST,
  INVOICE_QUESTION,
  startHelpdesk,
  systemInstructionOf,
  type HelpdeskUnderTest,
} from './support/harness.js';
import { buildService } from './support/service-process.js';

const GLOBEX_PROFILE = `company_name: Globex
signature: |-
  Warm regards,
  The Globex care team
style_rules:
  - Never promise a delivery date.
`;

describe('the support profile in the agents’ prompts', () => {
  let dir: string;
  let helpdesk: HelpdeskUnderTest | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'helpdesk-profile-'));
  });
  afterEach(async () => {
    await helpdesk?.close();
    helpdesk = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('when the profile names another company, a signature and a style rule, then every agent’s system instruction carries them', async () => {
    writeFileSync(join(dir, 'profile.yaml'), GLOBEX_PROFILE);
    const { prompts } = loadSupportConfig({ SUPPORT_PROFILE_FILE: join(dir, 'profile.yaml') });
    helpdesk = await startHelpdesk({ prompts });

    await helpdesk.send('globex-1', INVOICE_QUESTION).expect(200);
    await helpdesk.send('globex-2', HUMAN_REQUEST).expect(200);

    const systems = new Map(
      helpdesk.modelCalls().map((c) => [callerOf(c), systemInstructionOf(c)]),
    );
    expect([...systems.keys()].sort()).toEqual(['billing', 'coordinator', 'escalation']);
    expect(systems.get('coordinator')).toContain('You are the front desk of the Globex help desk.');
    expect(systems.get('billing')).toContain(
      'You answer billing questions for the Globex support team',
    );
    for (const system of systems.values()) {
      expect(system).toContain('Style rules:\n- Never promise a delivery date.');
      expect(system).not.toContain('a customer help desk');
    }
    expect(systems.get('escalation')).toContain(
      'End the reply with this signature, exactly as written:\nWarm regards,\nThe Globex care team',
    );
  });

  it('when PROMPTS_DIR has billing.md, then the billing agent’s instruction is that file, rendered', async () => {
    writeFileSync(
      join(dir, 'billing.md'),
      'You are {{team}}’s billing desk. Quote the invoice {in braces} as the tool gives it.\n',
    );
    const { prompts } = loadSupportConfig({ PROMPTS_DIR: dir, PROFILE_COMPANY_NAME: 'Initech' });
    helpdesk = await startHelpdesk({ prompts });

    await helpdesk.send('override-1', INVOICE_QUESTION).expect(200);

    const billing = helpdesk.modelCalls().filter((c) => callerOf(c) === 'billing');
    expect(billing.length).toBeGreaterThan(0);
    const system = systemInstructionOf(billing[0]!);
    expect(system).toContain(
      'You are the Initech support team’s billing desk. Quote the invoice {in braces} as the tool gives it.',
    );
    expect(system).not.toContain('You answer billing questions');
    // The other agents keep their defaults.
    const coordinator = helpdesk.modelCalls().find((c) => callerOf(c) === 'coordinator')!;
    expect(systemInstructionOf(coordinator)).toContain('the Initech help desk');
  });
});

describe('a bad profile at start-up', () => {
  let dir: string;

  beforeAll(async () => {
    await buildService();
  }, 120_000);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'helpdesk-profile-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('when the profile file has a bad field, then the service exits 1 with one line naming it', async () => {
    writeFileSync(join(dir, 'profile.yaml'), 'company_name: Globex\ncolour: red\n');
    const child = spawn(process.execPath, [resolve(process.cwd(), 'dist/server.js')], {
      env: {
        PATH: process.env['PATH'] ?? '',
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: '0',
        AGENT_LLM_API_KEY: 'k',
        SUPPORT_PROFILE_FILE: join(dir, 'profile.yaml'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = { stdout: '', stderr: '' };
    child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
    const [code] = await once(child, 'close');

    expect(code).toBe(1);
    expect(output.stderr.trim().split('\n')).toEqual([
      'helpdesk: configuration error: support profile: colour: unknown field',
    ]);
    expect(output.stdout).not.toMatch(/starting|ready/);
  });
});
