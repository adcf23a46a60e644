import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkedFiles, outsideReferences, outsideReferencesIn } from './support/outside-paths.js';
import { repoRoot } from './support/repo.js';

const up = (n: number) => Array.from({ length: n }, () => '..').join('/');

describe('the repository stands on its own', () => {
  test('when every tracked source, test, script and configuration file is read, then none refers to a path outside the repository root', () => {
    const files = checkedFiles(repoRoot);
    // A sanity check of the listing itself: it must see code, tests, scripts and configuration.
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'docker-compose.yml',
        '.ci/run',
        'packages/llm-emulator/src/openai/openapi-validator.ts',
        'apps/helpdesk/test/openai-wire.test.ts',
      ]),
    );
    expect(outsideReferencesIn(repoRoot)).toEqual([]);
  });

  test('when a file climbs above the root with "..", then it is reported; when it stays inside, then it is not', () => {
    const root = '/r';
    const file = 'packages/a/src/b.ts';
    expect(outsideReferences(root, file, `readFileSync('${up(4)}/specs/x.yaml')`)).toHaveLength(1);
    expect(outsideReferences(root, file, `new URL('${up(3)}', import.meta.url)`)).toHaveLength(0);
    expect(outsideReferences(root, file, `resolve(here, '${up(1)}', '${up(1)}')`)).toHaveLength(0);
    expect(outsideReferences(root, file, 'f(...args, a..b)')).toHaveLength(0);
    expect(outsideReferences(root, '.ci/run', `cd ${up(2)} && ls`)).toHaveLength(1);
  });

  test("when a file names the shared folder beside the checkouts or the machine's work directory, then it is reported", () => {
    const root = '/r';
    const shared = ['shared', 'specs', 'openai-openapi.yaml'].join('/');
    expect(outsideReferences(root, 'a.ts', `const SPEC = '${shared}';`)).toHaveLength(1);
    expect(outsideReferences(root, 'packages/a/src/b.ts', `'${up(1)}/shared'`)).toEqual([
      expect.objectContaining({ why: 'a shared folder beside the repository' }),
    ]);
    expect(
      outsideReferences(root, 'a.ts', `'file://${['', 'work', 'main', 'x.js'].join('/')}'`),
    ).toHaveLength(1);
  });

  test('when the OpenAI document the emulator validates against is looked for, then it is inside the repository with its licence', () => {
    for (const file of ['openai-openapi.yaml', 'openai-openapi.LICENSE', 'README.md'])
      expect(existsSync(join(repoRoot, 'packages/llm-emulator/spec', file))).toBe(true);
  });
});
