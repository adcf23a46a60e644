import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { freePort } from '../net/free-port.js';
import { childEnv } from '../processes/child-env.js';
import { launchService } from '../processes/child-service.js';
import { paths } from '../repo-paths.js';
import { LOG_LEVEL, OFFLINE_ENV, type RunningSystem, type SystemOptions } from './system.js';

const langgraphJsonSchema = z.object({ graphs: z.record(z.string(), z.string()) }).loose();

export interface LanggraphDevServer extends RunningSystem {
  /** The graph id from langgraph.json; the dev server accepts it as `assistant_id`. */
  graphId: string;
  /** Where the dev server keeps its "in-memory" store between flushes (`.langgraph_api/`). */
  storeDir: string;
  /** Bytes of that store once the dev server flushed it (it flushes after 3 s without writes). */
  storeBytes(): Promise<number>;
}

async function directoryBytes(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  let total = 0;
  for (const entry of entries) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? await directoryBytes(path) : (await stat(path)).size;
  }
  return total;
}

const STORE_FLUSH_WAIT_MS = 4_000;

/**
 * `langgraphjs dev` serving the graph that apps/email-review/langgraph.json points at. The config is
 * copied into a fresh temp dir (graph paths rewritten to reach the app) because the dev server
 * reloads its store from, and writes a .gitignore into, the config's directory: each run starts
 * empty and the app's folder stays untouched.
 */
export async function startLanggraphDevServer(options: SystemOptions): Promise<LanggraphDevServer> {
  const appDir = dirname(paths.emailReviewLanggraphJson);
  const config = langgraphJsonSchema.parse(
    JSON.parse(await readFile(paths.emailReviewLanggraphJson, 'utf8')),
  );
  const dir = await mkdtemp(join(tmpdir(), 'bench-langgraph-'));
  const graphs = Object.fromEntries(
    Object.entries(config.graphs).map(([id, spec]) => {
      const [file = '', symbol] = spec.split(':');
      const rewritten = `./${relative(dir, resolve(appDir, file))}${symbol ? `:${symbol}` : ''}`;
      return [id, rewritten];
    }),
  );
  const graphId = Object.keys(graphs)[0];
  if (!graphId) throw new Error(`${paths.emailReviewLanggraphJson} declares no graph`);
  const configPath = join(dir, 'langgraph.json');
  await writeFile(configPath, JSON.stringify({ ...config, env: undefined, graphs }, null, 2));

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const shown = {
    LOG_LEVEL,
    LLM_A_API_KEY: 'bench-key',
    LLM_A_BASE_URL: `${options.emulatorUrl}/v1`,
  };
  const proc = await launchService({
    name: 'langgraphjs dev',
    command: paths.langgraphCli,
    args: [
      'dev',
      '--no-browser',
      '--no-reload',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--config',
      configPath,
    ],
    env: childEnv({ ...OFFLINE_ENV, ...shown }),
    shownEnv: shown,
    readyUrl: `${url}/ok`,
    readyTimeoutMs: 120_000,
  }).catch(async (err: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    label: 'LangGraph dev server',
    url,
    graphId,
    storeDir: join(dir, '.langgraph_api'),
    storeBytes: async () => {
      await delay(STORE_FLUSH_WAIT_MS);
      return directoryBytes(join(dir, '.langgraph_api'));
    },
    process: proc,
    stop: async () => {
      await proc.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
