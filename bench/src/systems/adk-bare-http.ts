import { join } from 'node:path';
import { freePort } from '../net/free-port.js';
import { childEnv } from '../processes/child-env.js';
import { launchService } from '../processes/child-service.js';
import { paths } from '../repo-paths.js';
import { OFFLINE_ENV, type RunningSystem, type SystemOptions } from './system.js';

/** The helpdesk's agent tree on ADK's Runner behind a bare node:http server (adk-bare-http-child.ts). */
export async function startAdkBareHttp(options: SystemOptions): Promise<RunningSystem> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const shown = {
    PORT: String(port),
    AGENT_LLM_API_KEY: 'bench-key',
    AGENT_LLM_BASE_URL: options.emulatorUrl,
  };
  const proc = await launchService({
    name: 'ADK behind bare node:http',
    command: process.execPath,
    args: [join(paths.benchDist, 'systems/adk-bare-http-child.js')],
    env: childEnv({ ...OFFLINE_ENV, ...shown }),
    shownEnv: shown,
    readyUrl: `${url}/readyz`,
  });
  return { label: 'ADK behind bare node:http', url, process: proc, stop: () => proc.stop() };
}
