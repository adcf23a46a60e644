import { execFileSync } from 'node:child_process';
import { cpus, freemem, loadavg, totalmem, type as osType, release } from 'node:os';

/** What a reader needs to weigh the numbers: cores, memory, Node, load when the run started. */
export function machineFacts(): Record<string, string> {
  const cpu = cpus();
  let pgVersion = 'unknown';
  try {
    pgVersion = execFileSync('psql', ['--version'], { encoding: 'utf8', timeout: 2_000 }).trim();
  } catch {
    // psql is only for this line of the report
  }
  return {
    cores: `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown'}`,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB total, ${(freemem() / 2 ** 30).toFixed(1)} GiB free at start`,
    'load average at start (1/5/15 min)': loadavg()
      .map((l) => l.toFixed(2))
      .join(' / '),
    os: `${osType()} ${release()}`,
    node: process.version,
    'PostgreSQL client': pgVersion,
  };
}
