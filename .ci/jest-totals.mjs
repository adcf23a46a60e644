// Sums jest's JSON results over every package and prints "PASSED FAILED" for .ci/run to report.
// Exits non-zero when anything failed or no package produced results.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['apps', 'packages'].flatMap((dir) =>
  existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [],
);
roots.push('bench', 'eval');
let passed = 0;
let failed = 0;
let suitesFailed = 0;
for (const root of roots) {
  const file = join(root, 'test-output', 'jest-results.json');
  const manifest = join(root, 'package.json');
  if (!existsSync(manifest) || !JSON.parse(readFileSync(manifest, 'utf8')).scripts?.test) continue;
  if (!existsSync(file)) {
    // A package whose jest crashed before writing results must not vanish from the totals.
    console.error(`no jest results in ${root}`);
    failed += 1;
    continue;
  }
  const result = JSON.parse(readFileSync(file, 'utf8'));
  passed += result.numPassedTests;
  failed += result.numFailedTests;
  suitesFailed += result.numRuntimeErrorTestSuites ?? 0;
}
// A suite that crashed before running its tests counts as one failure so it cannot hide.
failed += suitesFailed;
console.log(`${passed} ${failed}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
