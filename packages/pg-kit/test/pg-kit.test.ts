import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import pg from 'pg';
import { pino } from 'pino';
import { z } from 'zod';
import {
  DatabaseHealth,
  DatabaseUnavailable,
  databaseEnv,
  exitDatabaseUnreachable,
  isDatabaseUnreachable,
  openPools,
  withTransaction,
} from '../src/index.js';

const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function capturedLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });

describe('isDatabaseUnreachable', () => {
  test('when the connection is refused or the server shuts down, then the database is unreachable', () => {
    expect(isDatabaseUnreachable(refused())).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('terminating'), { code: '57P01' }))).toBe(
      true,
    );
  });

  test('when PostgreSQL rejects the query itself, then it is not an outage', async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      const error = await client.query('SELEC 1').catch((e: unknown) => e);
      expect(isDatabaseUnreachable(error)).toBe(false);
    } finally {
      await client.end();
    }
  });
});

describe('DatabaseHealth', () => {
  test('when a step fails because the database is away, then 503 database_unavailable with Retry-After, logged once per outage', async () => {
    const { logger, lines } = capturedLogger();
    const health = new DatabaseHealth(logger);
    for (let i = 0; i < 3; i++) {
      const error = await health.guard(() => Promise.reject(refused())).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DatabaseUnavailable);
      expect(error).toMatchObject({
        status: 503,
        code: 'database_unavailable',
        headers: { 'retry-after': '2' },
      });
    }
    expect(await health.guard(async () => 'ok')).toBe('ok');
    expect(await health.guard(async () => 'ok')).toBe('ok');
    expect(lines.map((line) => line.msg)).toEqual([
      'database unavailable',
      'database available again',
    ]);
  });

  test('when a step fails for another reason, then that error passes through unchanged', async () => {
    const health = new DatabaseHealth(pino({ level: 'silent' }));
    const bug = new TypeError('bad');
    await expect(health.guard(() => Promise.reject(bug))).rejects.toBe(bug);
  });
});

describe('openPools', () => {
  let frozen: Server;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // Accepts connections and never answers: what a SIGSTOPped PostgreSQL looks like to a client.
    frozen = createServer((socket) => sockets.push(socket));
    frozen.listen(0, '127.0.0.1');
    await once(frozen, 'listening');
  });

  afterAll(() => {
    for (const socket of sockets) socket.destroy();
    frozen.close();
  });

  test('when the server accepts but never answers, then a query fails within the connect timeout', async () => {
    const port = (frozen.address() as { port: number }).port;
    const pools = openPools({
      connectionString: `postgres://postgres@127.0.0.1:${port}/test`,
      query: { max: 1, connectTimeoutMs: 300 },
      locks: { max: 1, connectTimeoutMs: 300 },
      logger: pino({ level: 'silent' }),
    });
    try {
      const error = await pools.pool.query('SELECT 1').catch((e: unknown) => e);
      expect(isDatabaseUnreachable(error)).toBe(true);
    } finally {
      await pools.end();
    }
  });

  test('when a connection is cut while a transaction holds it, then the transaction fails, the process goes on, and the pool serves again', async () => {
    const { logger } = capturedLogger();
    const pools = openPools({
      connectionString: TEST_DATABASE_URL,
      query: { max: 2 },
      locks: { max: 1 },
      logger,
    });
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.prependListener('uncaughtException', onUncaught);
    try {
      const failed = await withTransaction(pools.pool, async (client) => {
        const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
        // The server closes the connection; pg emits 'error' on the checked-out client.
        await new Promise((resolve) => setTimeout(resolve, 200));
        await client.query('SELECT 1');
      }).catch((error: unknown) => error);

      expect(failed).toBeInstanceOf(Error);
      expect(uncaught).toEqual([]);
      expect((await pools.pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      process.removeListener('uncaughtException', onUncaught);
      await admin.end();
      await pools.end();
    }
  });

  test('when limits are given, then each pool carries its own statement and lock timeouts', async () => {
    const pools = openPools({
      connectionString: TEST_DATABASE_URL,
      query: { max: 1, statementTimeoutMs: 1234 },
      locks: { max: 1, lockTimeoutMs: 4321 },
      logger: pino({ level: 'silent' }),
    });
    try {
      expect((await pools.pool.query('SHOW statement_timeout')).rows[0]).toEqual({
        statement_timeout: '1234ms',
      });
      expect((await pools.lockPool.query('SHOW lock_timeout')).rows[0]).toEqual({
        lock_timeout: '4321ms',
      });
    } finally {
      await pools.end();
    }
  });
});

describe('databaseEnv', () => {
  const schema = z.object(databaseEnv({ poolMax: 7, queryTimeoutMs: 9_000 }));

  test('when nothing is set, then the service keeps its state in memory with the default pool size', () => {
    expect(schema.parse({})).toEqual({
      DATABASE_SCHEMA: 'public',
      PG_POOL_MAX: 7,
      PG_PREPARED_STATEMENTS: true,
      PG_CONNECT_TIMEOUT_MS: 5_000,
      PG_QUERY_TIMEOUT_MS: 9_000,
    });
  });

  test('when PG_PREPARED_STATEMENTS is false, then the pools prepare nothing; another value fails', () => {
    expect(schema.parse({ PG_PREPARED_STATEMENTS: 'false' })).toMatchObject({
      PG_PREPARED_STATEMENTS: false,
    });
    expect(schema.safeParse({ PG_PREPARED_STATEMENTS: 'no' }).success).toBe(false);
  });

  test('when the URL is not postgres:// or the schema not an identifier, then parsing fails', () => {
    expect(schema.safeParse({ DATABASE_URL: 'mysql://x' }).success).toBe(false);
    expect(schema.safeParse({ DATABASE_SCHEMA: 'Robert"); DROP' }).success).toBe(false);
  });
});

describe('exitDatabaseUnreachable', () => {
  test('when a start-up gives up on its database, then it logs one fatal line naming it without its password and exits 1', () => {
    const { logger, lines } = capturedLogger();
    const realExit = process.exit;
    let exitCode: unknown;
    process.exit = ((code?: number) => {
      exitCode = code;
    }) as typeof process.exit;
    try {
      exitDatabaseUnreachable(
        logger,
        {
          connectionString: 'postgres://app:hunter2@db.internal:5432/app',
          schema: 'helpdesk',
          redact: (text) => text.replaceAll('hunter2', '***'),
        },
        refused(),
      );

      expect(exitCode).toBe(1);
    } finally {
      process.exit = realExit;
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 60,
      msg: 'cannot open the database postgres://app:***@db.internal:5432/app: connect ECONNREFUSED 127.0.0.1:1',
      schema: 'helpdesk',
    });
    expect(JSON.stringify(lines)).not.toContain('hunter2');
  });
});
