import type { WebhooksResult, WebhookVariant } from '../scenarios/results.js';
import { median } from '../stats/percentiles.js';
import type { Section, TargetCheck } from './report-model.js';

/** One endpoint subscribed to every event may cost at most this share of the throughput. */
export const MAX_WEBHOOK_COST = 0.05;

const LABELS: Record<WebhookVariant, string> = {
  none: 'no webhook endpoint',
  subscribed: 'one endpoint, every event',
  floor: 'floor: the same events POSTed with no outbox',
};

/**
 * A variant's lifecycles/s over none's, round by round (the variants of a round run back to back,
 * so a machine that slows down for a while slows all of them), and the median of those ratios.
 */
const pairedRatio = (result: WebhooksResult, variant: WebhookVariant) =>
  median(result.rounds[variant].map((perSecond, i) => perSecond / result.rounds.none[i]!));
const ratio = (result: WebhooksResult) => pairedRatio(result, 'subscribed');

const floorRatio = (result: WebhooksResult) => pairedRatio(result, 'floor');

/**
 * Judged against the floor (the same signed POSTs with no outbox: what any delivery costs on this
 * machine, where the receiver shares the two cores), round by round; the share of none is shown.
 */
export function webhooksTargets(result: WebhooksResult): TargetCheck[] {
  const goal = 1 - MAX_WEBHOOK_COST;
  const measured = median(
    result.rounds.subscribed.map((perSecond, i) => perSecond / result.rounds.floor[i]!),
  );
  const met = measured >= goal;
  return [
    {
      target: `one endpoint subscribed to every event ≥ ${100 * goal} % of the floor's lifecycles/s (the same events POSTed with no outbox)`,
      measured: `${(100 * measured).toFixed(1)} % (median of the rounds' ratios; medians: ${median(result.rounds.subscribed).toFixed(1)} vs ${median(result.rounds.floor).toFixed(1)} lifecycles/s); of none subscribed: ${(100 * ratio(result)).toFixed(1)} %, the floor's of none: ${(100 * floorRatio(result)).toFixed(1)} %`,
      met,
      ...(met
        ? {}
        : {
            shortfall: `${(100 * (goal - measured)).toFixed(1)} percentage points below ${100 * goal} %`,
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
          'of none, median of the rounds (%)',
        ],
        rows: (['none', 'subscribed', 'floor'] as const).map((variant) => [
          LABELS[variant],
          ...result.rounds[variant],
          median(result.rounds[variant]),
          100 * pairedRatio(result, variant),
        ]),
      },
    ],
    notes: [
      `The emulator answers at once, so only the service's own work is timed. Each lifecycle (create, draft, approve, delivery to the log) reports three events (thread.awaiting_review, thread.approved, delivery.delivered): each is committed in the transaction of its change (its delivery row inserted beside the thread's) and sent by the outbox's workers, in batches of what gathered since the last one, to a receiver in a process of its own that verifies every signature; ${result.delivered.subscribed} deliveries verified. The floor variant has no endpoint configured; after each lifecycle the bench POSTs the same three events, signed, from the service's process with the package's sendAttempt (${result.delivered.floor} verified): no row, no job, no retry, so no outbox design can cost less on this machine, where the receiver shares the two cores. The variants take turns round by round, each first in turn, each on a schema of its own, after a warm-up round of each at the same concurrency; a variant's share of none is the median of its rounds' ratios to the none round beside them. A round starts only when the last one's email deliveries are sent and its events delivered (not counted in lifecycles/s): after the last lifecycle of a round that took median ${median(result.drainMs.none).toFixed(0)} ms without an endpoint, ${median(result.drainMs.subscribed).toFixed(0)} ms with one (the longest: ${Math.max(...result.drainMs.subscribed).toFixed(0)} ms) and ${median(result.drainMs.floor).toFixed(0)} ms for the floor.`,
    ],
    targets: webhooksTargets(result),
    commands: [],
  };
}
