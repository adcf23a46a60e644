/**
 * The value of one sample in a Prometheus text exposition (what GET /metrics answers): the sum of
 * the samples named `name` whose labels include `labels`; 0 when there is none. For tests and the
 * bench, which read a service's metrics the way a scraper does.
 */
export function metricSample(
  exposition: string,
  name: string,
  labels: Record<string, string> = {},
): number {
  let total = 0;
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [
        m[1]!,
        m[2]!,
      ]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value))
      total += Number(match[3]);
  }
  return total;
}
