/**
 * prom-client@15.1.3: Node's default metrics, all but the GC duration histogram.
 *
 * `collectDefaultMetrics()` has no option to leave a metric out, and its `gc` collector keeps a
 * PerformanceObserver on every garbage collection for the life of the process (prometheus/client_js
 * issues 490 and 500). The bench's scenario 8 measured it: with it, metrics on ran at 91–95 % of
 * metrics off; without it, 94–105 % (three rounds each, same machine), inside the 3 % target.
 * So this runs each collector of the public `collectDefaultMetrics.metricsList` but `gc`, loading
 * it from prom-client's internal path `lib/metrics/<name>.js` with the same config
 * `collectDefaultMetrics` gives it.
 *
 * Guarded by packages/http-kit/test/metrics.test.ts (every default metric but
 * `nodejs_gc_duration_seconds` is served). Listed in src/framework-patches.ts.
 */
import { createRequire } from 'node:module';
import { collectDefaultMetrics, type Registry } from 'prom-client';

const require = createRequire(import.meta.url);

/** Default collectors left out, by their name in `collectDefaultMetrics.metricsList`. */
export const LEFT_OUT_DEFAULT_METRICS = ['gc'];

type Collector = (registry: Registry, config: Record<string, unknown>) => void;

export function collectDefaultMetricsWithoutGc(registry: Registry): void {
  // The config collectDefaultMetrics passes to each collector (its own default precision).
  const config = { register: registry, eventLoopMonitoringPrecision: 10 };
  for (const name of collectDefaultMetrics.metricsList) {
    if (LEFT_OUT_DEFAULT_METRICS.includes(name)) continue;
    (require(`prom-client/lib/metrics/${name}.js`) as Collector)(registry, config);
  }
}
