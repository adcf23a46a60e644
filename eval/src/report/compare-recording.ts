import { existsSync, readFileSync } from 'node:fs';
import { deterministicView, firstDifference, type EvalReport } from './report.js';

/** A replay must give the recording's report, less its timings: one more gate line says whether it did. */
export function compareWithRecording(report: EvalReport, file: string): void {
  let verdict: { value: number; note?: string };
  if (!existsSync(file)) verdict = { value: 0, note: `no recorded report at ${file}` };
  else {
    const recorded = JSON.parse(readFileSync(file, 'utf8')) as EvalReport;
    if (recorded.pipeline_version !== report.pipeline_version) {
      report.problems.push(
        `recorded with pipeline ${recorded.pipeline_version}, replayed with ${report.pipeline_version}: compared on what the services did`,
      );
    }
    const diff = firstDifference(deterministicView(recorded), deterministicView(report));
    verdict = diff ? { value: 0, note: `differs from the recording at ${diff}` } : { value: 1 };
  }
  report.metrics.push({
    name: 'replay.reproduces_recording',
    value: verdict.value,
    n: 1,
    threshold: { min: 1 },
    verdict: verdict.value === 1 ? 'pass' : 'fail',
    ...(verdict.note ? { note: verdict.note } : {}),
  });
}
