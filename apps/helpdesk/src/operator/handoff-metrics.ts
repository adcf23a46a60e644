import { Gauge, Histogram, type Registry } from 'prom-client';

/**
 * `helpdesk_handoff_waiting_conversations` (conversations waiting for a person, every instance's
 * in PostgreSQL) and `helpdesk_handoff_time_to_takeover_seconds` (request to takeover).
 */
export function handoffMetrics(registry: Registry, waiting: () => Promise<number>) {
  new Gauge({
    name: 'helpdesk_handoff_waiting_conversations',
    help: 'Conversations waiting for a person (escalated, not taken over yet).',
    registers: [registry],
    async collect() {
      // The database away: the scrape still answers, with the last count.
      await waiting()
        .then((count) => this.set(count))
        .catch(() => undefined);
    },
  });
  const toTakeover = new Histogram({
    name: 'helpdesk_handoff_time_to_takeover_seconds',
    help: 'From a conversation’s request for a person to an operator taking it over.',
    buckets: [5, 15, 30, 60, 120, 300, 600, 1800, 3600],
    registers: [registry],
  });
  return { observeTakeover: (waitedMs: number) => toTakeover.observe(waitedMs / 1000) };
}
