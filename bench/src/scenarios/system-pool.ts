import type { RunningSystem } from '../systems/system.js';

/**
 * Systems kept for the whole bench run when `reuse` is on (the smoke run: starting the peers' CLIs
 * costs more than its tiny workloads). In a full run every scenario starts its systems fresh, so no
 * scenario inherits another one's threads or sessions.
 */
export class SystemPool {
  private readonly systems = new Map<string, RunningSystem>();

  constructor(readonly reuse: boolean) {}

  get(key: string): RunningSystem | undefined {
    return this.reuse ? this.systems.get(key) : undefined;
  }

  keep(key: string, system: RunningSystem): boolean {
    if (!this.reuse) return false;
    this.systems.set(key, system);
    return true;
  }

  async closeAll(): Promise<void> {
    for (const system of [...this.systems.values()].reverse())
      await system.stop().catch(() => undefined);
    this.systems.clear();
  }
}
