import { join } from 'node:path';
import type { DemoEnv } from './env.js';

/** `emulator`: everything offline against the local provider emulator. `real`: the providers named by the keys. */
export type RunMode = 'emulator' | 'real';

export type ServiceName = 'llm-emulator' | 'email-review' | 'helpdesk';

/** The runner's variables that move a service to another port. */
export type PortVariable = 'DEMO_EMULATOR_PORT' | 'DEMO_EMAIL_PORT' | 'DEMO_HELPDESK_PORT';

/** A demo on a laptop: every service listens on loopback only, not on every interface as in a container. */
export const DEMO_HOST = '127.0.0.1';

/** One child process of the demo: a built Node entry point started with plain `node`. */
export interface ServiceSpec {
  name: ServiceName;
  cwd: string;
  /** Arguments after `node`; the first one is the entry script, relative to `cwd`. */
  args: string[];
  env: Record<string, string | undefined>;
  port: number;
  portVariable: PortVariable;
  url: string;
  /** Answers 200 once the service can serve: the apps' /readyz (their database reached), the emulator's /healthz. */
  healthPath: string;
}

/** How long email-review keeps trying an unreachable database in the demo before it exits 1. */
export const DEMO_DATABASE_WAIT_MS = 20_000;

/** Any non-empty key satisfies the emulator; this one says in logs where it came from. */
export const EMULATOR_KEY = 'demo-key-for-the-local-emulator';

const localUrl = (port: number) => `http://${DEMO_HOST}:${port}`;

/**
 * The services to start, in start order. In emulator mode both apps get dummy keys and base URLs pointing at the
 * emulator, so real keys exported in the shell are never sent anywhere; in real mode the environment passes as is.
 */
export function planServices(input: {
  mode: RunMode;
  repoRoot: string;
  env: DemoEnv;
  inherited: Record<string, string | undefined>;
  /** The demo's mail catcher: email-review delivers there (SMTP_URL and MAIL_FROM set for it). */
  mail?: { smtpUrl: string; from: string };
}): ServiceSpec[] {
  const { mode, repoRoot, env, inherited } = input;
  const mail = input.mail ? { SMTP_URL: input.mail.smtpUrl, MAIL_FROM: input.mail.from } : {};
  const emulatorUrl = localUrl(env.DEMO_EMULATOR_PORT);
  const host = { HOST: DEMO_HOST };
  const llmOverrides =
    mode === 'emulator'
      ? {
          LLM_A_API_KEY: EMULATOR_KEY,
          LLM_A_BASE_URL: `${emulatorUrl}/v1`,
          AGENT_LLM_API_KEY: EMULATOR_KEY,
          AGENT_LLM_BASE_URL: emulatorUrl,
        }
      : {};

  const emulator: ServiceSpec = {
    name: 'llm-emulator',
    cwd: join(repoRoot, 'packages/llm-emulator'),
    args: ['dist/cli.js', '--port', String(env.DEMO_EMULATOR_PORT), '--host', DEMO_HOST],
    env: { ...inherited, EMULATOR_PORT: String(env.DEMO_EMULATOR_PORT) },
    port: env.DEMO_EMULATOR_PORT,
    portVariable: 'DEMO_EMULATOR_PORT',
    url: emulatorUrl,
    healthPath: '/healthz',
  };
  // A service waits for an unreachable database (503 meanwhile); on a laptop a wrong DATABASE_URL should end
  // the demo in seconds, not after email-review's five production minutes.
  const databaseWait = inherited.DATABASE_STARTUP_TIMEOUT_MS
    ? {}
    : { DATABASE_STARTUP_TIMEOUT_MS: String(DEMO_DATABASE_WAIT_MS) };
  const emailReview: ServiceSpec = {
    name: 'email-review',
    cwd: join(repoRoot, 'apps/email-review'),
    args: ['dist/server.js'],
    env: {
      ...inherited,
      // The sample help center, so that drafts answer from it and cite it (a shell's KB_DIR wins).
      KB_DIR: inherited.KB_DIR || join(repoRoot, 'packages/knowledge/sample-help-center'),
      ...databaseWait,
      ...llmOverrides,
      ...mail,
      ...host,
      PORT: String(env.DEMO_EMAIL_PORT),
    },
    port: env.DEMO_EMAIL_PORT,
    portVariable: 'DEMO_EMAIL_PORT',
    url: localUrl(env.DEMO_EMAIL_PORT),
    healthPath: '/readyz',
  };
  const helpdesk: ServiceSpec = {
    name: 'helpdesk',
    cwd: join(repoRoot, 'apps/helpdesk'),
    args: ['dist/server.js'],
    env: {
      ...inherited,
      // The sample help center, so that general questions get answers citing it (a shell's KB_DIR wins).
      KB_DIR: inherited.KB_DIR || join(repoRoot, 'packages/knowledge/sample-help-center'),
      ...llmOverrides,
      ...host,
      PORT: String(env.DEMO_HELPDESK_PORT),
    },
    port: env.DEMO_HELPDESK_PORT,
    portVariable: 'DEMO_HELPDESK_PORT',
    url: localUrl(env.DEMO_HELPDESK_PORT),
    healthPath: '/readyz',
  };
  return mode === 'emulator' ? [emulator, emailReview, helpdesk] : [emailReview, helpdesk];
}
