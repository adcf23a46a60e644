import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder per test file, removed afterwards; `write` puts a file in it and returns its path. */
export function tempDir(): { path: () => string; write: (name: string, text: string) => string } {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'support-profile-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  return {
    path: () => dir,
    write: (name, text) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
  };
}
