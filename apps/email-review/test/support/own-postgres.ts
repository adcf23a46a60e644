import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './smtp-sink.js';

const BIN = '/usr/lib/postgresql/15/bin';

/** Runs a PostgreSQL binary as the `postgres` user (initdb and the server refuse to run as root). */
function asPostgres(binary: string, args: string[]): void {
  const command = [join(BIN, binary), ...args].map((arg) => `'${arg}'`).join(' ');
  const asRoot = process.getuid?.() === 0;
  execFileSync(asRoot ? 'su' : 'sh', asRoot ? ['postgres', '-c', command] : ['-c', command], {
    stdio: 'pipe',
  });
}

/**
 * A PostgreSQL cluster of the test's own (initdb in a temp dir, another port), so a test can stop and
 * restart it while the shared one keeps running. `remove()` stops it and deletes its files.
 */
export class OwnPostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  static async create(): Promise<OwnPostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'er-pg-'));
    chmodSync(dir, 0o700);
    if (process.getuid?.() === 0) chownSync(dir, 101, 104);
    const cluster = new OwnPostgres(dir, await freePort());
    asPostgres('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
    cluster.start();
    return cluster;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  start(): void {
    asPostgres('pg_ctl', [
      '-D',
      join(this.dir, 'data'),
      '-l',
      join(this.dir, 'log'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      '-w',
      'start',
    ]);
  }

  stop(): void {
    asPostgres('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']);
  }

  /** The postmaster and every backend: all of the cluster's processes. */
  private processes(): number[] {
    const postmaster = Number(
      readFileSync(join(this.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], {
      encoding: 'utf8',
    })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((pid) => pid > 0);
    return [postmaster, ...children];
  }

  /** Frozen: connections are accepted (by the kernel) but nothing answers, until thaw(). */
  freeze(): void {
    for (const pid of this.processes()) process.kill(pid, 'SIGSTOP');
  }

  thaw(): void {
    for (const pid of this.processes()) process.kill(pid, 'SIGCONT');
  }

  remove(): void {
    try {
      this.thaw();
    } catch {
      // not running
    }
    try {
      this.stop();
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
