import { spawn, type ChildProcess } from 'node:child_process';
import { prefixLines } from './prefix-lines.js';
import type { ServiceSpec } from './service-plan.js';
import type { Color, Terminal } from './terminal.js';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningService {
  spec: ServiceSpec;
  child: ChildProcess;
  /** Settles when the process has exited and its output is drained (or it could not be spawned at all). */
  exited: Promise<Exit>;
}

const COLORS: Color[] = ['magenta', 'cyan', 'yellow'];

/**
 * The demo's child processes. Each is spawned directly with `node` (no shell in between), so a signal sent to it
 * reaches the service itself and nothing survives it.
 */
export class ServiceGroup {
  private readonly running: RunningService[] = [];
  private stopping = false;

  constructor(
    private readonly terminal: Terminal,
    private readonly onUnexpectedExit: (service: RunningService, exit: Exit) => void,
    /** How a service's output line is shown (the demo makes pino JSON readable). */
    private readonly formatLine: (line: string) => string = (line) => line,
    private readonly prefixWidth = 12,
  ) {}

  start(spec: ServiceSpec): RunningService {
    if (this.stopping) throw new Error(`not starting ${spec.name}: the demo is stopping`);
    const child = spawn(process.execPath, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const color = COLORS[this.running.length % COLORS.length] ?? 'cyan';
    const prefix = `${this.terminal.paint(spec.name.padEnd(this.prefixWidth), color)} | `;
    prefixLines(child.stdout!, (line) => this.terminal.out(`${prefix}${this.formatLine(line)}`));
    prefixLines(child.stderr!, (line) => this.terminal.err(`${prefix}${this.formatLine(line)}`));

    const exited = new Promise<Exit>((resolve) => {
      // 'close' rather than 'exit': it comes after the child's last output lines have been read and printed.
      child.once('close', (code, signal) => resolve({ code, signal }));
      child.once('error', (error) => {
        this.terminal.err(`${prefix}could not start: ${error.message}`);
        resolve({ code: null, signal: null });
      });
    });
    const service = { spec, child, exited };
    void exited.then((exit) => {
      if (!this.stopping) this.onUnexpectedExit(service, exit);
    });
    this.running.push(service);
    return service;
  }

  /**
   * Stops the services in reverse start order (the apps before the emulator they call): SIGTERM, which each
   * service answers by draining and exiting, then SIGKILL for one that is still there after `graceMs`.
   */
  async stopAll(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    const apps = this.running.filter((service) => service.spec.name !== 'llm-emulator');
    const emulator = this.running.filter((service) => service.spec.name === 'llm-emulator');
    await Promise.all(apps.map((service) => stopOne(service, graceMs)));
    await Promise.all(emulator.map((service) => stopOne(service, graceMs)));
  }

  /** Second Ctrl-C: no more waiting. */
  killAll(): void {
    this.stopping = true;
    for (const service of this.running) {
      if (isRunning(service.child)) service.child.kill('SIGKILL');
    }
  }
}

function isRunning(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

async function stopOne(service: RunningService, graceMs: number): Promise<void> {
  if (!isRunning(service.child)) return;
  service.child.kill('SIGTERM');
  const timer = setTimeout(() => service.child.kill('SIGKILL'), graceMs);
  await service.exited;
  clearTimeout(timer);
}
