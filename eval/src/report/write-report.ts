import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeCassetteMeta } from '../cassettes/cassette-meta.js';
import type { EvalSettings } from '../settings.js';
import { renderChart } from './chart.js';
import { renderMarkdown } from './markdown.js';
import type { EvalReport } from './report.js';

/** The recording a replay must reproduce, beside its cassettes. */
export const recordedReportFile = (settings: EvalSettings) =>
  join(settings.EVAL_CASSETTES_DIR, settings.EVAL_CASSETTE, 'report.json');

/**
 * Writes report-<mode>.{json,md} and chart-<mode>.svg under EVAL_OUT/<pipeline version>/, and with
 * EVAL_RECORD the recording's own report, chart and cassette.json beside the cassettes.
 */
export function writeReports(
  report: EvalReport,
  settings: EvalSettings,
): { json: string; markdown: string; chart: string } {
  const version = report.pipeline_version;
  const dir = join(settings.EVAL_OUT, version);
  mkdirSync(dir, { recursive: true });
  const files = {
    json: join(dir, `report-${settings.mode}.json`),
    markdown: join(dir, `report-${settings.mode}.md`),
    chart: join(dir, `chart-${settings.mode}.svg`),
  };
  writeFileSync(files.json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(files.chart, renderChart(report.metrics));
  writeFileSync(files.markdown, renderMarkdown(report, `chart-${settings.mode}.svg`));
  if (settings.EVAL_RECORD) {
    const recorded = recordedReportFile(settings);
    writeFileSync(recorded, `${JSON.stringify(report, null, 2)}\n`);
    writeCassetteMeta(settings);
    writeFileSync(join(dirname(recorded), 'chart.svg'), renderChart(report.metrics));
    writeFileSync(join(dirname(recorded), 'report.md'), renderMarkdown(report, 'chart.svg'));
  }
  return files;
}
