import type { ProfileSummary } from '../profile/cpu-profile.js';

/** A cell: a number (formatted by the writer) or a short text such as "n/a". */
export type Cell = number | string;

export interface Table {
  title: string;
  columns: string[];
  rows: Cell[][];
  /** Decimal places for numeric cells (default 1). */
  decimals?: number;
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
  /** For a missed target: by how much. */
  shortfall?: string;
  /** What the other measurements say about the miss (e.g. CPU vs waiting). */
  explanation?: string;
  /** For a missed target: where the project's service spends its time under that workload. */
  profile?: ProfileSummary;
  profileWorkload?: string;
}

export interface Section {
  id: number;
  title: string;
  tables: Table[];
  notes: string[];
  targets: TargetCheck[];
  /** Exact command lines of the systems this scenario started. */
  commands: string[];
}

export interface Report {
  startedAt: string;
  durationMs: number;
  command: string;
  scale: string;
  machine: Record<string, string>;
  sections: Section[];
}
