import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import pg from 'pg';
import { pino } from 'pino';
import { DatabaseUnavailable, openPools, type PoolOptions, type Pools } from '../src/index.js';

const TEST_DATABASE = new URL(
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
);

function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push((JSON.parse(line) as { msg: string }).msg);
      }
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** A TCP relay to the test database that can be taken away (connections refused) and back. */
class Relay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  async up(): Promise<void> {
    this.server = createServer((inbound) => {
      const outbound = connect(Number(TEST_DATABASE.port || 5432), TEST_DATABASE.hostname);
      for (const socket of [inbound, outbound]) {
        this.sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => this.sockets.delete(socket));
      }
      inbound.pipe(outbound).pipe(inbound);
    });
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as { port: number }).port;
  }

  async down(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise((closed) => server.close(closed));
  }

  url(): string {
    const url = new URL(TEST_DATABASE);
    url.host = `127.0.0.1:${this.port}`;
    return url.toString();
  }
}

/** One connection per pool, on the test database, logging nothing; `options` changes that. */
const testPools = (options: Partial<PoolOptions> = {}) =>
  openPools({
    connectionString: TEST_DATABASE.toString(),
    query: { max: 1 },
    locks: { max: 1 },
    logger: pino({ level: 'silent' }),
    ...options,
  });

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('GuardedPool, the query pool of openPools', () => {
  let pools: Pools | undefined;
  afterEach(async () => {
    await pools?.end();
    pools = undefined;
  });

  test('when the database cannot be reached, then queries and checkouts fail as DatabaseUnavailable, logged once; once it is back, the pool serves and says so once', async () => {
    const relay = new Relay();
    await relay.up();
    const { logger, lines } = capturedLogger();
    pools = openPools({
      connectionString: relay.url(),
      query: { max: 2, connectTimeoutMs: 1_000 },
      locks: { max: 1 },
      logger,
    });
    const { pool } = pools;
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);

    await relay.down();
    for (let i = 0; i < 3; i++) {
      expect(await failure(pool.query('SELECT 1'))).toBeInstanceOf(DatabaseUnavailable);
      expect(await failure(pool.connect())).toBeInstanceOf(DatabaseUnavailable);
    }
    expect(lines).toEqual(['database unavailable']);

    await relay.up();
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    expect(lines).toEqual(['database unavailable', 'database available again']);
    await pools.end();
    pools = undefined;
    await relay.down();
  });

  test('when a checked-out connection is cut, then its query fails as DatabaseUnavailable, the process goes on, and release destroys it', async () => {
    pools = testPools();
    const { pool } = pools;
    const client = await pool.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await pools.lockPool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    // The server closes the connection; pg emits 'error' on the checked-out client.
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(await failure(client.query('SELECT 1'))).toBeInstanceOf(DatabaseUnavailable);
    client.release();
    expect(pool.totalCount).toBe(0);
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  test('when a checked-out query outlasts the query timeout, then it fails as DatabaseUnavailable and release destroys the connection instead of pooling it', async () => {
    pools = testPools({ query: { max: 1, queryTimeoutMs: 200 } });
    const { pool } = pools;
    const client = await pool.connect();

    expect(await failure(client.query('SELECT pg_sleep(2)'))).toBeInstanceOf(DatabaseUnavailable);
    client.release();
    expect(pool.totalCount).toBe(0);
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  test('when the service is not ready yet, then the query pool refuses as DatabaseUnavailable and the lock pool serves the set-up', async () => {
    let ready = false;
    pools = testPools({ isReady: () => ready });

    expect(await failure(pools.pool.query('SELECT 1'))).toBeInstanceOf(DatabaseUnavailable);
    expect(await failure(pools.pool.connect())).toBeInstanceOf(DatabaseUnavailable);
    expect((await pools.lockPool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    ready = true;
    expect((await pools.pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  test('when a query is wrong, then its error passes unchanged and the connection is pooled again', async () => {
    pools = testPools();
    const client = await pools.pool.connect();

    const error = await failure(client.query('SELEC 1'));
    client.release();
    expect(error).toBeInstanceOf(pg.DatabaseError);
    expect(pools.pool.idleCount).toBe(1);
  });
});
