import type { BenchConfig } from '../config.js';
import { BenchDatabase } from '../db/bench-database.js';
import type { EmulatorProcess } from '../emulator/emulator-process.js';
import type { RunningSystem } from '../systems/system.js';
import type { SystemPool } from './system-pool.js';

/** What every scenario gets: the settings, the shared emulator, and cleanup of what it starts. */
export class ScenarioContext {
  private readonly systems: RunningSystem[] = [];
  private readonly databases: BenchDatabase[] = [];

  constructor(
    readonly config: BenchConfig,
    readonly emulator: EmulatorProcess,
    /** Unique per bench run: in schema names and in the texts sent, so logs can be attributed. */
    readonly runTag: string,
    private readonly run: { pool: SystemPool; profilesLeft: number },
  ) {}

  /** Takes one of the run's profiling slots (the smoke run profiles once, to keep the path alive). */
  takeProfileSlot(): boolean {
    if (!this.config.profileMisses || this.run.profilesLeft <= 0) return false;
    this.run.profilesLeft -= 1;
    return true;
  }

  /** A progress line, printed only when asked for (`--progress`). */
  log(message: string): void {
    if (this.config.progress) this.warn(message);
  }

  /** A line that is printed whatever the settings: something went wrong. */
  warn(message: string): void {
    process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
  }

  /** Starts a system and remembers it, so `cleanup()` stops it even when the scenario fails. */
  async start<T extends RunningSystem>(starting: Promise<T>): Promise<T> {
    const system = await starting;
    this.systems.push(system);
    this.log(`started ${system.label} at ${system.url} (pid ${system.process.pid})`);
    return system;
  }

  /**
   * A system the scenario may share with other scenarios of a smoke run (see SystemPool); in a
   * full run the same as `start`.
   */
  async shared<T extends RunningSystem>(key: string, start: () => Promise<T>): Promise<T> {
    const existing = this.run.pool.get(key);
    if (existing) return existing as T;
    const system = await start();
    this.log(`started ${system.label} at ${system.url} (pid ${system.process.pid})`);
    if (!this.run.pool.keep(key, system)) this.systems.push(system);
    return system;
  }

  async stop(system: RunningSystem): Promise<void> {
    const i = this.systems.indexOf(system);
    if (i >= 0) this.systems.splice(i, 1);
    await system.stop();
  }

  /** A fresh schema for this scenario in the bench database; dropped by `cleanup()`. */
  async database(name: string): Promise<BenchDatabase> {
    const db = await BenchDatabase.create(
      this.config.databaseUrl,
      `bench_${this.runTag}_${name}`.toLowerCase(),
    );
    this.databases.push(db);
    return db;
  }

  async cleanup(): Promise<void> {
    for (const system of this.systems.splice(0).reverse()) {
      await system
        .stop()
        .catch((err: unknown) => this.warn(`stopping ${system.label} failed: ${String(err)}`));
    }
    for (const db of this.databases.splice(0)) {
      await db
        .drop()
        .catch((err: unknown) => this.warn(`dropping schema ${db.schema} failed: ${String(err)}`));
    }
  }
}
