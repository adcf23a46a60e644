import type { ObservabilityResult, ObservabilityVariant } from '../scenarios/results.js';
import { median } from '../stats/percentiles.js';
import type { Section, TargetCheck } from './report-model.js';

/** Metrics may cost at most this share of the throughput with both off. */
export const MAX_METRICS_COST = 0.03;

const LABELS: Record<ObservabilityVariant, string> = {
  off: 'metrics and tracing off',
  metrics: 'metrics on, tracing off',
  tracing: 'metrics and tracing on (OTLP/HTTP export)',
};

const ratio = (result: ObservabilityResult, variant: ObservabilityVariant) =>
  median(result.rounds[variant]) / median(result.rounds.off);

export function observabilityTargets(result: ObservabilityResult): TargetCheck[] {
  const metrics = ratio(result, 'metrics');
  const met = metrics >= 1 - MAX_METRICS_COST;
  return [
    {
      target: `metrics on (tracing off) within ${100 * MAX_METRICS_COST} % of both off's lifecycles/s`,
      measured: `${(100 * metrics).toFixed(1)} % of both off (medians: ${median(result.rounds.metrics).toFixed(1)} vs ${median(result.rounds.off).toFixed(1)} lifecycles/s)`,
      met,
      ...(met
        ? {}
        : {
            shortfall: `${(100 * (1 - MAX_METRICS_COST - metrics)).toFixed(1)} percentage points below ${100 * (1 - MAX_METRICS_COST)} %`,
          }),
    },
  ];
}

export function observabilitySection(result: ObservabilityResult): Section {
  const rounds = result.rounds.off.length;
  return {
    id: 8,
    title: 'Metrics and tracing',
    tables: [
      {
        title: `email-review over HTTP in the bench's process, ${result.lifecycles} lifecycles at concurrency ${result.concurrency} per round`,
        columns: [
          'variant',
          ...Array.from({ length: rounds }, (_, i) => `round ${i + 1} (lifecycles/s)`),
          'median (lifecycles/s)',
          'of both off (%)',
        ],
        rows: (['off', 'metrics', 'tracing'] as const).map((variant) => [
          LABELS[variant],
          ...result.rounds[variant],
          median(result.rounds[variant]),
          100 * ratio(result, variant),
        ]),
      },
    ],
    notes: [
      `The emulator answers at once, so only the service's own work is timed. Metrics off and on take turns round by round, each going first in every other round; tracing is measured after them (the OpenTelemetry SDK, once registered, stays for the process), every span exported over OTLP/HTTP (JSON) to a receiver in the bench's process: ${result.spansExported} spans. Tracing has no target: it is measured and reported.`,
    ],
    targets: observabilityTargets(result),
    commands: [],
  };
}
