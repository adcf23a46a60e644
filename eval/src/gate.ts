import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { MetricValue } from './metrics/aggregate.js';

const thresholdSchema = z
  .object({ min: z.number().optional(), max: z.number().optional(), why: z.string().optional() })
  .strict()
  .refine((t) => t.min !== undefined || t.max !== undefined, 'needs min or max');

const gateConfigSchema = z
  .object({ $comment: z.string().optional(), thresholds: z.record(z.string(), thresholdSchema) })
  .strict();
export type GateConfig = z.infer<typeof gateConfigSchema>;
export type Threshold = z.infer<typeof thresholdSchema>;

export function loadGateConfig(file: string): GateConfig {
  const result = gateConfigSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`${file}: ${issue.path.join('.')}: ${issue.message}`);
  }
  return result.data;
}

export type Verdict = 'pass' | 'fail' | 'not measured' | 'reported';

export interface GatedMetric extends MetricValue {
  name: string;
  threshold?: Threshold;
  verdict: Verdict;
}

/**
 * Judges each metric against its threshold: a metric without one is only reported; one that was not
 * measured is neither passed nor failed (it says why). A threshold naming a metric the run does not
 * have fails, so a renamed metric cannot drop out of the gate unnoticed — unless that part of the
 * suite was not run (`ran`).
 */
export function applyGate(
  metrics: Record<string, MetricValue>,
  config: GateConfig,
  ran: (name: string) => boolean,
): GatedMetric[] {
  const out: GatedMetric[] = Object.entries(metrics).map(([name, metric]) => {
    const threshold = config.thresholds[name];
    if (!threshold) return { name, ...metric, verdict: 'reported' };
    if (metric.value === null) return { name, ...metric, threshold, verdict: 'not measured' };
    const ok =
      (threshold.min === undefined || metric.value >= threshold.min) &&
      (threshold.max === undefined || metric.value <= threshold.max);
    return { name, ...metric, threshold, verdict: ok ? 'pass' : 'fail' };
  });
  for (const [name, threshold] of Object.entries(config.thresholds)) {
    if (!(name in metrics) && ran(name)) {
      out.push({
        name,
        value: null,
        n: 0,
        threshold,
        verdict: 'fail',
        note: 'the run has no such metric',
      });
    }
  }
  return out;
}

export function tally(gated: GatedMetric[]): {
  passed: number;
  failed: number;
  notMeasured: number;
} {
  return {
    passed: gated.filter((m) => m.verdict === 'pass').length,
    failed: gated.filter((m) => m.verdict === 'fail').length,
    notMeasured: gated.filter((m) => m.verdict === 'not measured').length,
  };
}
