import { readFileSync, readdirSync } from 'node:fs';

/** Linux reports CPU time in clock ticks of 1/100 s on every platform Node supports. */
const TICK_MS = 10;

interface ProcStat {
  pid: number;
  pgrp: number;
  cpuMs: number;
}

function readStat(pid: string): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name: state(3) ppid(4) pgrp(5) … utime(14) stime(15).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      pid: Number(pid),
      pgrp: Number(fields[2]),
      cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
    };
  } catch {
    return undefined; // the process ended while we looked
  }
}

function groupMembers(pgid: number): ProcStat[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(readStat)
    .filter((s): s is ProcStat => s !== undefined && s.pgrp === pgid);
}

/** Resident memory (bytes) of one process, from /proc; 0 once it is gone. */
export function processRss(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Resident memory of every process in a process group. The peers' CLIs run the server in a child
 * (the LangGraph CLI even in a grandchild), so the group is what "the server" weighs.
 */
export function processGroupRss(pgid: number): number {
  return groupMembers(pgid).reduce((total, p) => total + processRss(p.pid), 0);
}

/** CPU time (user + system, ms) used so far by the live processes of a process group. */
export function processGroupCpuMs(pgid: number): number {
  return groupMembers(pgid).reduce((total, p) => total + p.cpuMs, 0);
}
