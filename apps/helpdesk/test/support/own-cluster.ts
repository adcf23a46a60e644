import { execFile } from 'node:child_process';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const BIN = '/usr/lib/postgresql/15/bin';
const run = promisify(execFile);

/** Runs a PostgreSQL binary as the `postgres` user (the server refuses to run as root). */
const asPostgres = (binary: string, args: string[]) =>
  run('runuser', ['-u', 'postgres', '--', join(BIN, binary), ...args]);

/** A port nobody listens on now (for a server that must come back on the same one). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

export interface OwnCluster {
  url: string;
  /** Starts it, unless it runs already. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Frozen (SIGSTOP): connections are accepted by the kernel, but nothing answers until thaw(). */
  freeze(): Promise<void>;
  thaw(): Promise<void>;
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
  let frozen = false;
  /** The postmaster and its children (backends, checkpointer, …). */
  const processes = async () => {
    const postmaster = (await readFile(join(data, 'postmaster.pid'), 'utf8')).split('\n')[0]!;
    const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', postmaster]).catch(() => ({
      stdout: '',
    }));
    return [postmaster, ...stdout.split('\n').map((line) => line.trim())]
      .map(Number)
      .filter((pid) => pid > 0);
  };
  const signal = async (name: NodeJS.Signals) => {
    for (const pid of await processes()) process.kill(pid, name);
    frozen = name === 'SIGSTOP';
  };
  const stop = async () => {
    if (!running) return;
    if (frozen) await signal('SIGCONT');
    await asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    running = false;
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => {
      if (running) return;
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
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    remove: async () => {
      await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
