import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../net/free-port.js';
import { childEnv } from '../processes/child-env.js';
import { launchService } from '../processes/child-service.js';
import { paths } from '../repo-paths.js';
import { OFFLINE_ENV, type RunningSystem, type SystemOptions } from './system.js';

export interface AdkApiServer extends RunningSystem {
  /** The app name ADK derived from the agent file's name; sessions and /run are keyed by it. */
  appName: string;
}

export interface AdkApiServerOptions extends SystemOptions {
  /** `--session_service_uri`, e.g. `postgresql://…` for ADK's DatabaseSessionService (default: memory). */
  sessionServiceUri?: string;
}

/** `adk api_server <apps/helpdesk/dist/agents/agent.js>`: the same agent tree, in ADK's own server. */
export async function startAdkApiServer(options: AdkApiServerOptions): Promise<AdkApiServer> {
  // ADK bundles the agent file into os.tmpdir() and does not always remove it on exit: give it a
  // temp dir of its own and remove that.
  const tmp = await mkdtemp(join(tmpdir(), 'bench-adk-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const shown = { AGENT_LLM_API_KEY: 'bench-key', AGENT_LLM_BASE_URL: options.emulatorUrl };
  const proc = await launchService({
    name: 'adk api_server',
    command: paths.adkCli,
    args: [
      'api_server',
      paths.helpdeskAgentFile,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--log_level',
      'warn',
      ...(options.sessionServiceUri ? ['--session_service_uri', options.sessionServiceUri] : []),
    ],
    env: childEnv({ ...OFFLINE_ENV, ...shown, TMPDIR: tmp }),
    shownEnv: shown,
    // Listing the apps makes ADK load (bundle) the agent file, so the first chat is not slowed by it.
    readyUrl: `${url}/list-apps`,
    isReady: (body) => (JSON.parse(body) as unknown[]).length > 0,
    readyTimeoutMs: 120_000,
    // ADK removes its bundled copy of the agent on SIGINT, not on SIGTERM.
    stopSignal: 'SIGINT',
  }).catch(async (err: unknown) => {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  });
  const apps = (await (await fetch(`${url}/list-apps`)).json()) as string[];
  const appName = apps[0];
  if (!appName) throw new Error('adk api_server lists no app');
  return {
    label: options.sessionServiceUri ? 'adk api_server (database)' : 'adk api_server',
    url,
    appName,
    process: proc,
    stop: async () => {
      await proc.stop();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}
