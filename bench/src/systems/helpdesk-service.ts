import { freePort } from '../net/free-port.js';
import { childEnv } from '../processes/child-env.js';
import { launchService } from '../processes/child-service.js';
import { paths } from '../repo-paths.js';
import { helpCenterEnv, readyTimeoutMs, type HelpCenterOptions } from './help-center-options.js';
import { LOG_LEVEL, type RunningSystem, type SystemOptions } from './system.js';

export interface HelpdeskOptions extends SystemOptions, HelpCenterOptions {
  maxSessions?: number;
  /** Sessions in PostgreSQL (`sessions=postgres`) in this schema of this database. */
  database?: { url: string; schema: string };
}

/** `node apps/helpdesk/dist/server.js`, as deployed, pointed at the emulator. */
export async function startHelpdesk(options: HelpdeskOptions): Promise<RunningSystem> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const extra: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL,
    AGENT_LLM_API_KEY: 'bench-key',
    AGENT_LLM_BASE_URL: options.emulatorUrl,
    ...(options.maxSessions ? { MAX_SESSIONS: String(options.maxSessions) } : {}),
    ...(options.database
      ? { DATABASE_URL: options.database.url, DATABASE_SCHEMA: options.database.schema }
      : {}),
    ...helpCenterEnv(options),
  };
  const proc = await launchService({
    name: 'helpdesk',
    command: process.execPath,
    args: [...(options.nodeFlags ?? []), paths.helpdeskServer],
    env: childEnv(extra),
    shownEnv: extra,
    readyUrl: `${url}/readyz`,
    readyTimeoutMs: readyTimeoutMs(options),
  });
  const label = options.database ? 'project (postgres)' : 'project';
  return { label, url, process: proc, stop: () => proc.stop() };
}
