import type { WebhooksResult, WebhookVariant } from '../scenarios/results.js';
import { median } from '../stats/percentiles.js';
import type { Section, TargetCheck } from './report-model.js';

/** One endpoint subscribed to every event may cost at most this share of the throughput. */
export const MAX_WEBHOOK_COST = 0.05;

const LABELS: Record<WebhookVariant, string> = {
  none: 'no webhook endpoint',
  subscribed: 'one endpoint, every event',
};

const ratio = (result: WebhooksResult) =>
  median(result.rounds.subscribed) / median(result.rounds.none);

export function webhooksTargets(result: WebhooksResult): TargetCheck[] {
  const measured = ratio(result);
  const met = measured >= 1 - MAX_WEBHOOK_COST;
  return [
    {
      target: `one endpoint subscribed to every event ≥ ${100 * (1 - MAX_WEBHOOK_COST)} % of none subscribed's lifecycles/s`,
      measured: `${(100 * measured).toFixed(1)} % (medians: ${median(result.rounds.subscribed).toFixed(1)} vs ${median(result.rounds.none).toFixed(1)} lifecycles/s)`,
      met,
      ...(met
        ? {}
        : {
            shortfall: `${(100 * (1 - MAX_WEBHOOK_COST - measured)).toFixed(1)} percentage points below ${100 * (1 - MAX_WEBHOOK_COST)} %`,
          }),
    },
  ];
}

export function webhooksSection(result: WebhooksResult): Section {
  const rounds = result.rounds.none.length;
  return {
    id: 10,
    title: 'Webhooks',
    tables: [
      {
        title: `email-review on PostgreSQL over HTTP in the bench's process, ${result.lifecycles} lifecycles at concurrency ${result.concurrency} per round`,
        columns: [
          'variant',
          ...Array.from({ length: rounds }, (_, i) => `round ${i + 1} (lifecycles/s)`),
          'median (lifecycles/s)',
          'of none (%)',
        ],
        rows: (['none', 'subscribed'] as const).map((variant) => [
          LABELS[variant],
          ...result.rounds[variant],
          median(result.rounds[variant]),
          (100 * median(result.rounds[variant])) / median(result.rounds.none),
        ]),
      },
    ],
    notes: [
      `The emulator answers at once, so only the service's own work is timed. Each lifecycle (create, draft, approve, delivery to the log) reports three events (thread.awaiting_review, thread.approved, delivery.delivered): each is committed with its change (its delivery rows and their pg-boss jobs: one statement each, in the same transaction) and sent by the outbox's workers, in batches of what each fetch finds, to a receiver in a process of its own that verifies every signature; ${result.delivered} deliveries verified. The two variants take turns round by round, each first in every other round, each on a schema of its own. A round starts only when the last one's email deliveries are sent and its events delivered (not counted in lifecycles/s): after the last lifecycle of a round that took median ${median(result.drainMs.none).toFixed(0)} ms without an endpoint and ${median(result.drainMs.subscribed).toFixed(0)} ms with one (the longest: ${Math.max(...result.drainMs.subscribed).toFixed(0)} ms).`,
    ],
    targets: webhooksTargets(result),
    commands: [],
  };
}
