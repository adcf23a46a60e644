import { Gauge, type Registry } from 'prom-client';
import { oncePerScrape } from '../telemetry/email-review-metrics.js';
import { figuresOf, type Figures } from './quality-figures.js';
import type { DecisionRecord, QualityLedger } from './quality-ledger.js';

const LABELS = ['category', 'model', 'pipeline_version'] as const;

/**
 * The quality figures as gauges per category, model and pipeline version, read from the ledger on
 * each scrape (so every instance reports the same); thread ids stay out of the labels.
 */
export function qualityMetrics(registry: Registry, ledger: QualityLedger) {
  const read = oncePerScrape(() => ledger.list({}));
  const groups = (records: DecisionRecord[]) => {
    const byKey = new Map<string, { labels: Record<string, string>; records: DecisionRecord[] }>();
    for (const record of records) {
      const labels = Object.fromEntries(LABELS.map((name) => [name, record[name] ?? '']));
      const key = JSON.stringify(labels);
      const group = byKey.get(key) ?? { labels, records: [] };
      group.records.push(record);
      byKey.set(key, group);
    }
    return [...byKey.values()];
  };
  const gauge = (
    name: string,
    help: string,
    labelNames: readonly string[],
    set: (gauge: Gauge, records: DecisionRecord[]) => void,
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const records = await read();
        if (!records) return;
        this.reset();
        set(this, records);
      },
    });
  gauge(
    'email_review_drafts_decided',
    'Model drafts decided, by outcome (approved_unedited, approved_edited, rejected), category, model and pipeline version.',
    ['outcome', ...LABELS],
    (g, records) => {
      for (const { labels, records: group } of groups(records)) {
        const figures = figuresOf(group);
        g.set({ ...labels, outcome: 'approved_unedited' }, figures.approved_unedited);
        g.set(
          { ...labels, outcome: 'approved_edited' },
          figures.approved - figures.approved_unedited,
        );
        g.set({ ...labels, outcome: 'rejected' }, figures.rejected);
      }
    },
  );
  /** One gauge per group of labels, unset where the figure is null. */
  const perGroup = (name: string, help: string, value: (figures: Figures) => number | null) =>
    gauge(name, help, LABELS, (g, records) => {
      for (const { labels, records: group } of groups(records)) {
        const figure = value(figuresOf(group));
        if (figure !== null) g.set(labels, figure);
      }
    });
  perGroup(
    'email_review_draft_unedited_share',
    'Approved drafts sent as the model wrote them, over all approvals.',
    (figures) => figures.unedited_share,
  );
  perGroup(
    'email_review_draft_edit_distance_mean',
    'Mean normalized edit distance from the model draft to the text approved.',
    (figures) => figures.edit_distance.mean,
  );
  perGroup(
    'email_review_draft_edit_distances',
    'Approvals with a measured edit distance.',
    (figures) => figures.edit_distance.count,
  );
  gauge('email_review_draft_rejections', 'Rejected drafts by reason.', ['reason'], (g, records) => {
    for (const { reason, count } of figuresOf(records).reject_reasons) g.set({ reason }, count);
  });
}
