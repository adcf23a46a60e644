import { relative } from 'node:path';
import { metricTable } from './report/markdown.js';
import { repoRoot } from './paths.js';
import { runEval } from './run-eval.js';
import { loadSettings } from './settings.js';

/** `pnpm eval`: runs the suite, prints the table and `N passed, N failed`, exits 1 on any failure. */
async function main(): Promise<number> {
  const settings = loadSettings();
  const { report, files } = await runEval(settings);
  process.stdout.write(`${metricTable(report.metrics)}\n\n`);
  for (const problem of report.problems) process.stdout.write(`problem: ${problem}\n`);
  process.stdout.write(
    `pipeline ${report.pipeline_version} (${report.mode}${report.cassette ? `, cassette ${report.cassette}` : ''}), ` +
      `${report.email_cases.length} email and ${report.chat_cases.length} chat cases in ${(report.duration_ms / 1000).toFixed(1)} s; ` +
      `${report.not_measured} not measured; report: ${relative(repoRoot, files.markdown)}\n`,
  );
  process.stdout.write(`${report.passed} passed, ${report.failed} failed\n`);
  return report.failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`eval: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(2);
  },
);
