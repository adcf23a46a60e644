#!/usr/bin/env node
/**
 * `pnpm demo` / `pnpm start`: runs the services of this repo together from their built `dist/`, with prefixed
 * logs, and stops every one of them on Ctrl-C. `--real` (what `pnpm start` passes) uses the real providers and
 * email-review's own SMTP_URL (unset: replies only reach its log); without it the local LLM emulator stands in
 * for the providers and a mail catcher for SMTP.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadOrExit } from '@repo/llm-config';
import { mailLine, modeLine, readyBanner, runnerName, storageLine } from './banner.js';
import { onCtrlCInTerminal } from './ctrl-c.js';
import { loadDemoEnv } from './env.js';
import { humanLogLine } from './human-log-line.js';
import { DEMO_MAIL_FROM, startMailCatcher, type MailCatcher } from './mail-catcher.js';
import { portProblems } from './port-check.js';
import { ServiceGroup, type Exit } from './service-group.js';
import { DEMO_HOST, planServices, type RunMode } from './service-plan.js';
import { processTerminal } from './terminal.js';
import { waitUntilHealthy } from './wait-until-healthy.js';

const { values: flags } = parseArgs({ options: { real: { type: 'boolean', default: false } } });
const mode: RunMode = flags.real ? 'real' : 'emulator';
const env = loadOrExit(() => loadDemoEnv(process.env), 'demo');
const terminal = processTerminal({
  color: Boolean(process.stdout.isTTY) && env.NO_COLOR === undefined,
});
const runner = runnerName(mode);
const say = (text: string) =>
  terminal.out(`${terminal.paint(runner.padEnd(12), 'green')} | ${text}`);
const complain = (text: string) =>
  terminal.err(`${terminal.paint(runner.padEnd(12), 'red')} | ${text}`);

if (mode === 'real') {
  const missing = (['LLM_A_API_KEY', 'AGENT_LLM_API_KEY'] as const).filter((name) => !env[name]);
  if (missing.length > 0) {
    complain(
      `--real (the start script) uses the real providers and needs ${missing.join(' and ')}; run npx -y pnpm@10.34.8 demo to use the emulator`,
    );
    process.exit(1);
  }
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
// The demo (emulator) delivers to a mail catcher unless SMTP_URL names a server; `start` runs email-review as
// configured: SMTP_URL, or (unset) replies only reach its log, as .env.example says.
const catcherSettings =
  env.SMTP_URL || mode === 'real'
    ? undefined
    : {
        host: DEMO_HOST,
        port: env.DEMO_SMTP_PORT,
        dir: env.DEMO_MAIL_DIR ?? join(repoRoot, '.demo-mail'),
      };
const services = planServices({
  mode,
  repoRoot,
  env,
  inherited: process.env,
  ...(catcherSettings
    ? { mail: { smtpUrl: `smtp://${DEMO_HOST}:${catcherSettings.port}`, from: DEMO_MAIL_FROM } }
    : {}),
});
const unbuilt = services.filter((spec) => !existsSync(join(spec.cwd, spec.args[0] ?? '')));
if (unbuilt.length > 0) {
  complain(
    `not built: ${unbuilt.map((spec) => spec.name).join(', ')}; run npx -y pnpm@10.34.8 demo (it builds first) or npx -y pnpm@10.34.8 build`,
  );
  process.exit(1);
}

const problems = await portProblems(services);
if (problems.length > 0) {
  problems.forEach(complain);
  process.exit(1);
}

let catcher: MailCatcher | undefined;
if (catcherSettings) {
  try {
    catcher = await startMailCatcher(catcherSettings);
  } catch (error) {
    complain(
      `the mail catcher cannot listen on ${DEMO_HOST}:${catcherSettings.port} (${error instanceof Error ? error.message : String(error)}); set DEMO_SMTP_PORT to a free port`,
    );
    process.exit(1);
  }
}

let exitCode: number | undefined;
let stoppingSince = 0;
/**
 * One Ctrl-C without a terminal in raw mode reaches the demo twice: the terminal sends SIGINT to the whole
 * process group, and pnpm, in that group too, relays it to its script. Signals this close to the first are that
 * one keypress; a person's second Ctrl-C comes later.
 */
const SAME_KEYPRESS_MS = 1_000;
const group = new ServiceGroup(
  terminal,
  (service, exit) => {
    complain(
      `${service.spec.name} exited unexpectedly (${describeExit(exit)}); stopping the others`,
    );
    void stop(1);
  },
  env.DEMO_LOG_FORMAT === 'human' ? humanLogLine : undefined,
);

/** Stops every child, then exits; a second call (another Ctrl-C) kills whatever is left at once. */
async function stop(code: number): Promise<void> {
  if (exitCode !== undefined) {
    if (Date.now() - stoppingSince < SAME_KEYPRESS_MS) return;
    say('stopping now');
    group.killAll();
    return;
  }
  exitCode = code;
  stoppingSince = Date.now();
  say('stopping all services…');
  await group.stopAll();
  await catcher?.close();
  say('all services stopped');
  process.exit(exitCode);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => void stop(0));
onCtrlCInTerminal(process.stdin, () => void stop(0));

function describeExit(exit: Exit): string {
  return exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
}

async function startAll(): Promise<void> {
  say(modeLine(mode, services.find((spec) => spec.name === 'llm-emulator')?.url));
  say(storageLine(env.DATABASE_URL, mode));
  say(
    catcher
      ? `mail: email-review delivers to the mail catcher at ${catcher.url}; messages go to ${catcher.dir}`
      : `mail: ${mailLine({ smtpUrl: env.SMTP_URL })}`,
  );
  // The emulator must answer before the apps start talking to it; the two apps then start side by side.
  const batches = mode === 'emulator' ? [services.slice(0, 1), services.slice(1)] : [services];
  for (const batch of batches) {
    if (exitCode !== undefined) return;
    await Promise.all(
      batch.map((spec) => {
        const running = group.start(spec);
        return waitUntilHealthy(`${spec.url}${spec.healthPath}`, {
          name: spec.name,
          timeoutMs: env.DEMO_READY_TIMEOUT_MS,
          exited: running.exited,
        });
      }),
    );
  }
  terminal.out(
    readyBanner({
      terminal,
      services,
      mode,
      databaseUrl: env.DATABASE_URL,
      withToken: env.API_TOKEN !== undefined,
      ...(catcher ? { mailDir: catcher.dir } : {}),
      ...(env.SMTP_URL ? { smtpUrl: env.SMTP_URL } : {}),
    }),
  );
}

startAll().catch((error: unknown) => {
  if (exitCode !== undefined) return;
  complain(error instanceof Error ? error.message : String(error));
  void stop(1);
});
