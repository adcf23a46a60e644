import { freePort } from '../net/free-port.js';
import { childEnv } from '../processes/child-env.js';
import { launchService } from '../processes/child-service.js';
import { paths } from '../repo-paths.js';
import { helpCenterEnv, readyTimeoutMs, type HelpCenterOptions } from './help-center-options.js';
import { LOG_LEVEL, type RunningSystem, type SystemOptions } from './system.js';

export interface EmailReviewOptions extends SystemOptions, HelpCenterOptions {
  /** PostgreSQL mode when set: the connection URL and the schema to keep the tables in. */
  database?: { url: string; schema: string; poolMax?: number };
}

/** `node apps/email-review/dist/server.js`, as deployed, pointed at the emulator. */
export async function startEmailReview(options: EmailReviewOptions): Promise<RunningSystem> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const extra: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL,
    LLM_A_API_KEY: 'bench-key',
    LLM_A_BASE_URL: `${options.emulatorUrl}/v1`,
    ...(options.database
      ? {
          DATABASE_URL: options.database.url,
          DATABASE_SCHEMA: options.database.schema,
          ...(options.database.poolMax ? { PG_POOL_MAX: String(options.database.poolMax) } : {}),
        }
      : {}),
    ...helpCenterEnv(options),
  };
  const proc = await launchService({
    name: options.database ? 'email-review (PostgreSQL)' : 'email-review (memory)',
    command: process.execPath,
    args: [...(options.nodeFlags ?? []), paths.emailReviewServer],
    env: childEnv(extra),
    shownEnv: extra,
    readyUrl: `${url}/readyz`,
    readyTimeoutMs: readyTimeoutMs(options),
  });
  return {
    label: options.database ? 'project (PostgreSQL)' : 'project (memory)',
    url,
    process: proc,
    stop: () => proc.stop(),
  };
}
