import type { GatedMetric } from '../gate.js';
import { COUNT_METRIC } from './markdown.js';

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * An SVG bar chart of the scores between 0 and 1 (accuracies, recalls, shares), each with its
 * threshold as a tick: where a metric stands against its gate reads faster than in the table.
 */
export function renderChart(metrics: GatedMetric[]): string {
  const bars = metrics.filter(
    (m) => m.value !== null && m.value >= 0 && m.value <= 1 && !COUNT_METRIC.test(m.name),
  );
  const rowHeight = 22;
  const labelWidth = 240;
  const barWidth = 420;
  const height = 40 + bars.length * rowHeight;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + barWidth + 80}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="8" y="18" font-weight="bold">Scores (0–1): green passes, red fails, grey is reported only; black ticks are the thresholds</text>`,
  ];
  bars.forEach((m, i) => {
    const y = 30 + i * rowHeight;
    const color = m.verdict === 'fail' ? '#d9534f' : m.verdict === 'pass' ? '#5cb85c' : '#9aa5b1';
    parts.push(`<text x="8" y="${y + 13}">${escapeXml(m.name)}</text>`);
    parts.push(
      `<rect x="${labelWidth}" y="${y + 2}" width="${barWidth}" height="14" fill="#eef1f4"/>`,
    );
    parts.push(
      `<rect x="${labelWidth}" y="${y + 2}" width="${(m.value! * barWidth).toFixed(1)}" height="14" fill="${color}"/>`,
    );
    parts.push(
      `<text x="${labelWidth + barWidth + 6}" y="${y + 13}">${m.value!.toFixed(2)}</text>`,
    );
    const bound = m.threshold?.min ?? m.threshold?.max;
    if (bound !== undefined && bound >= 0 && bound <= 1) {
      const x = labelWidth + bound * barWidth;
      parts.push(
        `<line x1="${x}" y1="${y}" x2="${x}" y2="${y + 18}" stroke="#000" stroke-width="2"/>`,
      );
    }
  });
  parts.push('</svg>');
  return parts.join('\n');
}
