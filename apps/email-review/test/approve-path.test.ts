import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureServerBuilt } from './support/server-process.js';

// Issue 38: the approve path, route to response, passes at most 15 of the app's own files.

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

test('when a thread is approved, then the request passes at most 15 of the app’s own files, in memory mode and against PostgreSQL', async () => {
  ensureServerBuilt();

  const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(process.execPath, ['scripts/approve-path.mjs'], { cwd: APP_DIR }, (error, out) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: out }),
    );
  });

  const counts = [...stdout.matchAll(/^approve path \((\w+)\): (\d+) of/gm)].map(
    ([, mode, files]) => ({ mode, files: Number(files) }),
  );
  expect(counts.map((count) => count.mode)).toEqual(['memory', 'postgres']);
  for (const { files } of counts) {
    expect(files).toBeGreaterThanOrEqual(10); // the route, the decision, the stores, the graph…
    expect(files).toBeLessThanOrEqual(15);
  }
  expect(code).toBe(0);
}, 180_000);
