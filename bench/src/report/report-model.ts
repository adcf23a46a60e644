import type { ProfileSummary } from '../profile/cpu-profile.js';
import type { ScenarioResult } from '../scenarios/results.js';

/** A cell: a number (formatted by the writer) or a short text such as "n/a". */
export type Cell = number | string;

export interface Table {
  title: string;
  columns: string[];
  rows: Cell[][];
  /** Decimal places for numeric cells (default 1). */
  decimals?: number;
}

/** A workload to profile the project's service under when a target is missed. */
export interface ProfileRequest {
  service: 'email' | 'helpdesk';
  /** email-review's checkpointer; PostgreSQL gets a fresh schema. */
  mode?: 'memory' | 'postgres';
  iterations: number;
  concurrency: number;
  /** The emulator's latency per model call while profiling. */
  latencyMs: number;
  /** What was driven, as the report says it. */
  workload: string;
}

/** Profiles are run once per distinct workload and found again by this key. */
export function profileKey(request: ProfileRequest): string {
  const { service, mode, iterations, concurrency, latencyMs } = request;
  return [service, mode ?? '', iterations, concurrency, latencyMs].join('/');
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
  /** For a missed target: by how much. */
  shortfall?: string;
  /** What the other measurements say about the miss (e.g. CPU vs waiting). */
  explanation?: string;
  /** For a missed target: the workload to profile the project's service under. */
  profileRequest?: ProfileRequest | undefined;
  /** For a missed target: where the project's service spends its time under that workload. */
  profile?: ProfileSummary;
}

/** One scenario laid out: what the markdown shows of it. */
export interface Section {
  id: number;
  title: string;
  tables: Table[];
  notes: string[];
  targets: TargetCheck[];
  /** Exact command lines of the systems this scenario started. */
  commands: string[];
}

/** A scenario's result and the profiles taken for its missed targets (by `profileKey`), or why it failed. */
export type ScenarioOutcome =
  | { id: number; result: ScenarioResult; profiles: Record<string, ProfileSummary> }
  | { id: number; title: string; error: string };

/** Everything a bench run measured: the report module lays it out. */
export interface BenchReport {
  startedAt: string;
  durationMs: number;
  command: string;
  scale: string;
  machine: Record<string, string>;
  scenarios: ScenarioOutcome[];
}
