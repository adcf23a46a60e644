import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '@repo/llm-emulator';
import type pg from 'pg';
import {
  deployBundle,
  installedPackages,
  linksLeavingBundle,
  pruneLikeDockerfile,
  removeBundle,
} from './support/deploy.js';
import {
  connectOrSkip,
  dropTestSchema,
  freshSchemaName,
  TEST_DATABASE_URL,
} from './support/postgres.js';
import { freePort, minimalEnv, waitForHealthy, WatchedProcess } from './support/processes.js';
import { readPackageJson, readRepoFile, repoRoot } from './support/repo.js';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

const DEPLOY_TIMEOUT_MS = 120_000;

/**
 * Build and test tooling that must not reach a bundle at any depth. (Some devDependencies, e.g. @types/node, are
 * also production dependencies of third-party packages, so "no devDependency anywhere" would be wrong.)
 */
const TOOLING = [
  'jest',
  'ts-jest',
  'typescript',
  'supertest',
  'playwright-core',
  'eslint',
  'turbo',
  '@repo/llm-emulator',
  '@repo/jest-preset',
];

/** The bundle holds none of the package's devDependencies, no test tooling, and the built workspace packages it needs. */
function expectProductionOnly(bundle: string, packageDir: string): void {
  const manifest = readPackageJson(join(repoRoot, packageDir));
  const installed = installedPackages(bundle);
  for (const dev of Object.keys(manifest.devDependencies ?? {})) {
    expect([dev, existsSync(join(bundle, 'node_modules', dev))]).toEqual([dev, false]);
  }
  for (const tool of TOOLING.filter((name) => name !== manifest.name))
    expect(installed).not.toContain(tool);
  for (const dependency of Object.keys(manifest.dependencies ?? {})) {
    expect([
      dependency,
      existsSync(join(bundle, 'node_modules', dependency, 'package.json')),
    ]).toEqual([dependency, true]);
    if (dependency.startsWith('@repo/')) {
      expect([
        dependency,
        existsSync(join(bundle, 'node_modules', dependency, 'dist/index.js')),
      ]).toEqual([dependency, true]);
    }
  }
  expect(linksLeavingBundle(bundle)).toEqual([]);
}

describe('deploy bundles (what the Dockerfile copies into its runtime stages)', () => {
  let emulator: Emulator;
  let pool: pg.Pool | undefined;
  const bundles: string[] = [];
  const processes: WatchedProcess[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    pool = await connectOrSkip('the email-review deploy test');
  });

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()));
    await emulator?.close();
    await pool?.end();
    bundles.forEach(removeBundle);
  });

  /** The files of the package's image: its deploy bundle, cleaned up as the Dockerfile's build stage does. */
  async function imageFiles(filter: string): Promise<string> {
    const bundle = await deployBundle(filter);
    bundles.push(bundle);
    const removed = pruneLikeDockerfile(bundle, readRepoFile('Dockerfile'));
    expect(removed).toContain('src');
    expect(existsSync(join(bundle, 'src'))).toBe(false);
    return bundle;
  }

  /** Starts `node <entry>` from the bundle with only the environment given (no NODE_OPTIONS, no repo on the path). */
  async function startFromBundle(
    bundle: string,
    args: string[],
    env: Record<string, string>,
    healthUrl: string,
  ) {
    const process = new WatchedProcess(globalThis.process.execPath, args, {
      cwd: bundle,
      env: minimalEnv({ NODE_ENV: 'production', ...env }),
    });
    processes.push(process);
    await waitForHealthy(healthUrl, process);
    return process;
  }

  test(
    'when email-review is deployed with --prod, then the bundle alone runs with node against PostgreSQL and drafts a thread',
    async () => {
      const bundle = await imageFiles('email-review');
      expect(existsSync(join(bundle, 'dist/server.js'))).toBe(true);
      expectProductionOnly(bundle, 'apps/email-review');

      const schema = freshSchemaName('deploy_email_review');
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      try {
        if (pool) await pool.query(`CREATE SCHEMA ${schema}`);
        const service = await startFromBundle(
          bundle,
          ['dist/server.js'],
          {
            PORT: String(port),
            HOST: '127.0.0.1',
            LLM_A_API_KEY: 'deploy-test-key',
            LLM_A_BASE_URL: `${emulator.url}/v1`,
            ...(pool ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema } : {}),
          },
          `${url}/healthz`,
        );
        // Listening comes first (/healthz); the storage line once the database is set up.
        await service.waitForOutput(pool ? /checkpointer=postgres/ : /checkpointer=memory/, 30_000);

        // The review page is served from the package's web/ folder: it must be in the image too.
        const page = await fetch(`${url}/`);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toMatch(/^text\/html/);

        const response = await fetch(`${url}/threads`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            inbound: 'Hello, my invoice INV-1001 was charged twice. Please refund one.',
          }),
        });
        const thread = (await response.json()) as {
          status: string;
          draft: string | null;
          thread_id: string;
        };
        expect(response.status).toBe(201);
        expect(thread.status).toBe('awaiting_review');
        expect(thread.draft).toEqual(expect.any(String));

        if (pool) {
          const tables = await pool.query(
            'SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1',
            [schema],
          );
          expect(tables.rows[0].n).toBeGreaterThan(0);
        }
        expect((await service.stop()).code).toBe(0);
      } finally {
        if (pool) await dropTestSchema(pool, schema);
      }
    },
    DEPLOY_TIMEOUT_MS,
  );

  test(
    'when helpdesk is deployed with --prod, then the bundle alone runs with node and routes an invoice question to billing',
    async () => {
      const bundle = await imageFiles('helpdesk');
      expect(existsSync(join(bundle, 'dist/server.js'))).toBe(true);
      expectProductionOnly(bundle, 'apps/helpdesk');

      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const service = await startFromBundle(
        bundle,
        ['dist/server.js'],
        {
          PORT: String(port),
          HOST: '127.0.0.1',
          AGENT_LLM_API_KEY: 'deploy-test-key',
          AGENT_LLM_BASE_URL: emulator.url,
        },
        `${url}/healthz`,
      );

      const response = await fetch(`${url}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          session_id: 'deploy-test',
          message: 'What is the status of invoice INV-1001?',
        }),
      });
      const body = (await response.json()) as { agent: string; reply: string };
      expect(response.status).toBe(200);
      expect(body.agent).toBe('billing');
      expect(body.reply).toContain('INV-1001');
      // The chat page and its embed are served from the package's web/ folder: in the image too.
      for (const path of ['/', '/assets/chat.js', '/widget.js']) {
        expect([path, (await fetch(`${url}${path}`)).status]).toEqual([path, 200]);
      }
      expect((await service.stop()).code).toBe(0);
    },
    DEPLOY_TIMEOUT_MS,
  );

  test(
    'when the emulator is deployed with --prod, then the bundle alone answers /healthz and a chat completion',
    async () => {
      const bundle = await imageFiles('@repo/llm-emulator');
      expectProductionOnly(bundle, 'packages/llm-emulator');

      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const service = await startFromBundle(
        bundle,
        ['dist/cli.js'],
        { EMULATOR_PORT: String(port) },
        `${url}/healthz`,
      );
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer any' },
        body: JSON.stringify({
          model: 'gpt-4.1-mini',
          messages: [{ role: 'user', content: 'Hello there' }],
        }),
      });
      expect(response.status).toBe(200);
      expect((await service.stop()).code).toBe(0);
    },
    DEPLOY_TIMEOUT_MS,
  );
});
