import type { GatedMetric } from '../gate.js';
import type { ChatCaseResult } from '../metrics/chat-metrics.js';
import type { EmailCaseResult } from '../metrics/email-metrics.js';
import type { CaseCalls } from '../runners/attribute-calls.js';

/** Everything a run found, as written to report.json (and rendered to report.md). */
export interface EvalReport {
  pipeline_version: string;
  /** emulator, real or replay; `cassette` names the recording a replay answered from. */
  mode: string;
  cassette: string | null;
  models: { emailReview: string; helpdesk: string; judge: string | null };
  /** Who answered: the emulator (whatever the model names say), a provider's base URLs, or a cassette and its source. */
  answered_by: string;
  dataset_version: string;
  started_at: string;
  duration_ms: number;
  metrics: GatedMetric[];
  confusion: { labels: string[]; counts: number[][] } | null;
  email_cases: Array<EmailCaseResult & { calls: CaseCalls | undefined }>;
  chat_cases: Array<ChatCaseResult & { calls: CaseCalls | undefined }>;
  /** Problems outside any one metric: replay misses, provider calls no case claimed, a replay differing from its recording. */
  problems: string[];
  passed: number;
  failed: number;
  not_measured: number;
}

const VOLATILE = new Set([
  'started_at',
  'duration_ms',
  'mode',
  'cassette',
  'answered_by',
  'latency_ms',
  'ticket_id',
  'thread_id',
  // The code may move on while its requests stay the same (a refactoring): what must match is what it did.
  'pipeline_version',
  // Derived from the metrics, which are compared.
  'passed',
  'failed',
  'not_measured',
]);

/**
 * The part of a report a replay must reproduce exactly: everything but wall-clock times, the run's
 * own mode, ids the services make up (tickets), the latency metrics (timing, not behaviour), and the
 * pipeline version (a change that leaves every request the same replays the same).
 * Tokens are kept: a replay serves the recorded answers, usage included.
 */
export function deterministicView(report: EvalReport): unknown {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>)
          .filter(([key]) => !VOLATILE.has(key))
          .map(([key, v]) => [key, strip(v)]),
      );
    }
    return value;
  };
  return strip({
    ...report,
    metrics: report.metrics.filter(
      (m) => !m.name.includes('latency') && !m.name.startsWith('replay.'),
    ),
    problems: report.problems.filter(
      (p) => !p.startsWith('replay:') && !p.startsWith('recorded with'),
    ),
  });
}

/** The first difference between two values, as a path, or null when they are equal. */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | null {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) {
      const diff = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        `${path}.${key}`,
      );
      if (diff) return diff;
    }
  }
  return `${path}: ${JSON.stringify(a)?.slice(0, 120)} ≠ ${JSON.stringify(b)?.slice(0, 120)}`;
}
