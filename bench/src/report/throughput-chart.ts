import {
  LOAD_MODES,
  type LoadModeKey,
  type ScenarioResult,
  type SystemRun,
} from '../scenarios/results.js';

/** One system's throughput at each concurrency measured. */
export interface ChartSeries {
  system: string;
  /** The project's services are drawn solid, the frameworks' own servers dashed. */
  role: 'project' | 'peer';
  points: Array<{ concurrency: number; perSecond: number }>;
}

/** One service and its peer, in one unit. */
export interface ChartPanel {
  title: string;
  unit: string;
  series: ChartSeries[];
}

function series<K extends string>(
  runs: Record<LoadModeKey, Record<K, SystemRun>>,
  key: K,
  system: string,
  role: ChartSeries['role'],
): ChartSeries {
  const points = LOAD_MODES.map((m) => ({
    concurrency: m.concurrency,
    perSecond: runs[m.key][key].perSecond,
  }));
  return { system, role, points };
}

/** The panels scenarios 1 and 2 give (none when neither ran). */
export function throughputPanels(results: ScenarioResult[]): ChartPanel[] {
  return results.flatMap((result): ChartPanel[] => {
    if (result.scenario === 1)
      return [
        {
          title: 'email-review vs the LangGraph dev server',
          unit: 'lifecycles/s',
          series: [
            series(result.runs, 'memory', 'email-review (memory)', 'project'),
            series(result.runs, 'postgres', 'email-review (PostgreSQL)', 'project'),
            series(result.runs, 'peer', 'LangGraph dev server', 'peer'),
          ],
        },
      ];
    if (result.scenario === 2)
      return [
        {
          title: 'helpdesk vs adk api_server',
          unit: 'chats/s',
          series: [
            series(result.runs, 'project', 'helpdesk', 'project'),
            series(result.runs, 'peer', 'adk api_server', 'peer'),
          ],
        },
      ];
    return [];
  });
}

const PANEL_W = 420;
const PANEL_H = 330;
const PLOT = { left: 64, right: 20, top: 40, bottom: 104 };
/** The project's services in blue and green, every peer in the same red. */
const PROJECT_COLORS = ['#1f6fb4', '#2a9d4b', '#8e44ad'];
const PEER_COLOR = '#c0392b';

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const fmt = (x: number) => (x >= 1 ? String(Math.round(x)) : String(Number(x.toPrecision(1))));

function panelSvg(panel: ChartPanel, offsetX: number): string {
  const w = PANEL_W - PLOT.left - PLOT.right;
  const h = PANEL_H - PLOT.top - PLOT.bottom;
  const all = panel.series.flatMap((s) => s.points);
  const rates = all.map((p) => p.perSecond).filter((v) => Number.isFinite(v) && v > 0);
  const concurrencies = [...new Set(all.map((p) => p.concurrency))].sort((a, b) => a - b);
  // Log scales on both axes: the project and its peer differ by up to two orders of magnitude.
  const lo = rates.length ? Math.floor(Math.log10(Math.min(...rates))) : 0;
  const hi = Math.max(lo + 1, rates.length ? Math.ceil(Math.log10(Math.max(...rates))) : 1);
  const cLo = Math.log2(concurrencies[0] ?? 1);
  const cHi = Math.max(cLo + 1, Math.log2(concurrencies.at(-1) ?? 2));
  const x = (c: number) => PLOT.left + ((Math.log2(c) - cLo) / (cHi - cLo)) * w;
  const y = (v: number) => PLOT.top + h - ((Math.log10(v) - lo) / (hi - lo)) * h;
  const parts: string[] = [`<g transform="translate(${offsetX},0)">`];
  parts.push(
    `<text x="${PLOT.left + w / 2}" y="22" text-anchor="middle" font-weight="bold">${escapeXml(panel.title)}</text>`,
  );
  // Within one or two decades, 2 and 5 get a line too, so a reader can read a value off the axis.
  const steps = hi - lo <= 2 ? [1, 2, 5] : [1];
  const ticks = [];
  for (let d = lo; d <= hi; d += 1)
    for (const m of steps) if (d < hi || m === 1) ticks.push(m * 10 ** d);
  for (const v of ticks) {
    parts.push(
      `<line x1="${PLOT.left}" x2="${PLOT.left + w}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#ddd"/>`,
      `<text x="${PLOT.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${fmt(v)}</text>`,
    );
  }
  for (const c of concurrencies) {
    parts.push(
      `<line x1="${x(c).toFixed(1)}" x2="${x(c).toFixed(1)}" y1="${PLOT.top}" y2="${PLOT.top + h}" stroke="#eee"/>`,
      `<text x="${x(c).toFixed(1)}" y="${PLOT.top + h + 16}" text-anchor="middle">${c}</text>`,
    );
  }
  parts.push(
    `<rect x="${PLOT.left}" y="${PLOT.top}" width="${w}" height="${h}" fill="none" stroke="#999"/>`,
    `<text x="${PLOT.left + w / 2}" y="${PLOT.top + h + 34}" text-anchor="middle">concurrency (requests in flight)</text>`,
    `<text transform="translate(16,${PLOT.top + h / 2}) rotate(-90)" text-anchor="middle">${escapeXml(panel.unit)} (log scale)</text>`,
  );
  let projects = 0;
  panel.series.forEach((series, i) => {
    const color =
      series.role === 'peer'
        ? PEER_COLOR
        : (PROJECT_COLORS[projects++ % PROJECT_COLORS.length] ?? '#000');
    const dash = series.role === 'peer' ? ' stroke-dasharray="6 4"' : '';
    const drawn = series.points.filter((p) => Number.isFinite(p.perSecond) && p.perSecond > 0);
    const coords = drawn.map((p) => `${x(p.concurrency).toFixed(1)},${y(p.perSecond).toFixed(1)}`);
    const legendY = PLOT.top + h + 56 + i * 18;
    parts.push(
      `<g class="series" data-system="${escapeXml(series.system)}" data-role="${series.role}">`,
      `<polyline points="${coords.join(' ')}" fill="none" stroke="${color}" stroke-width="2"${dash}/>`,
      ...drawn.map(
        (p) =>
          `<circle cx="${x(p.concurrency).toFixed(1)}" cy="${y(p.perSecond).toFixed(1)}" r="3.5" fill="${color}"><title>${escapeXml(series.system)}, concurrency ${p.concurrency}: ${p.perSecond.toFixed(1)} ${escapeXml(panel.unit)}</title></circle>`,
      ),
      `<line x1="${PLOT.left}" x2="${PLOT.left + 28}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${color}" stroke-width="2"${dash}/>`,
      `<text x="${PLOT.left + 36}" y="${legendY}">${escapeXml(series.system)}</text>`,
      '</g>',
    );
  });
  parts.push('</g>');
  return parts.join('\n');
}

/** Throughput against concurrency, one panel per service and its peer, as standalone SVG text. */
export function throughputChartSvg(panels: ChartPanel[]): string {
  const width = PANEL_W * panels.length;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${PANEL_H}" viewBox="0 0 ${width} ${PANEL_H}" font-family="sans-serif" font-size="12">`,
    `<title>Throughput against concurrency: the project's services and the frameworks' own servers</title>`,
    `<rect width="${width}" height="${PANEL_H}" fill="#fff"/>`,
    ...panels.map((panel, i) => panelSvg(panel, i * PANEL_W)),
    '</svg>',
    '',
  ].join('\n');
}
