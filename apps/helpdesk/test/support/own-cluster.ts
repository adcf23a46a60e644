import { execFile } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const BIN = '/usr/lib/postgresql/15/bin';
const run = promisify(execFile);

/** Runs a PostgreSQL binary as the `postgres` user (the server refuses to run as root). */
const asPostgres = (binary: string, args: string[]) =>
  run('runuser', ['-u', 'postgres', '--', join(BIN, binary), ...args]);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

export interface OwnCluster {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  remove(): Promise<void>;
}

/**
 * A PostgreSQL cluster of the test's own (initdb in a temp directory, on a free port), so that a
 * test can stop and start it while the shared database keeps running. Not started yet.
 */
export async function createOwnCluster(): Promise<OwnCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'hd-pg-'));
  const { uid, gid } = await run('id', ['-u', 'postgres']).then(async ({ stdout }) => ({
    uid: Number(stdout.trim()),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
  }));
  await chown(dir, uid, gid);
  const data = join(dir, 'data');
  await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  let running = false;
  const stop = async () => {
    if (!running) return;
    await asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    running = false;
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => {
      await asPostgres('pg_ctl', [
        '-D',
        data,
        '-o',
        options,
        '-l',
        join(dir, 'log'),
        '-w',
        'start',
      ]);
      running = true;
    },
    stop,
    remove: async () => {
      await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
