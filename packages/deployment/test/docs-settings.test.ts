import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { appEnv, emulatorEnv } from './support/app-env.js';
import { readRepoFile, repoRoot } from './support/repo.js';

/** Every variable a service, the emulator, the demo runner or docker compose reads. */
function knownSettings(): Set<string> {
  const names = new Set<string>([
    ...appEnv('email-review').names,
    ...appEnv('helpdesk').names,
    ...emulatorEnv().names,
  ]);
  const runner = readRepoFile('packages/deployment/src/env.ts');
  for (const match of runner.matchAll(/^\s*([A-Z][A-Z0-9_]+):/gm)) names.add(match[1]!);
  const compose = readRepoFile('docker-compose.yml');
  for (const match of compose.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)) names.add(match[1]!);
  for (const match of compose.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)) names.add(match[1]!);
  return names;
}

/** Words in backticks that are SQL or HTTP, not settings. */
const KEYWORDS = new Set(
  'BEGIN COMMIT ROLLBACK SELECT INSERT UPDATE DELETE LISTEN NOTIFY LOCK GET POST PUT PATCH HEAD'.split(
    ' ',
  ),
);

/**
 * The UPPER_CASE names a document gives: with an underscore anywhere (`THREAD_RETENTION_DAYS`), or alone in
 * backticks (`OPERATORS`). `WEBHOOK_*` stands for a family and is not a name.
 */
function namesIn(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const match of markdown.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b(?!_?\*)/g))
    names.add(match[0]);
  for (const match of markdown.matchAll(/`([A-Z][A-Z0-9_]{2,})`/g))
    if (!KEYWORDS.has(match[1]!)) names.add(match[1]!);
  return names;
}

/** Constants of the code a design note may name (`FRAMEWORK_PATCHES`): declared in some source file. */
function declaredInCode(name: string, sources: string[]): boolean {
  return sources.some((source) => new RegExp(`\\bconst ${name}\\b`).test(source));
}

function sourceFiles(): string[] {
  const roots = ['apps/email-review/src', 'apps/helpdesk/src', 'packages'];
  return roots.flatMap((root) =>
    readdirSync(join(repoRoot, root), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !/(^|\/)(node_modules|dist)\//.test(file))
      .map((file) => readRepoFile(join(root, file))),
  );
}

describe('the settings the docs name', () => {
  const docs = readdirSync(join(repoRoot, 'docs')).filter((file) => file.endsWith('.md'));

  test('when docs/ is read, then the concepts page and the production checklist are there and linked from the README', () => {
    expect(docs).toEqual(
      expect.arrayContaining([
        'concepts-and-customising.md',
        'production-checklist.md',
        'design.md',
      ]),
    );
    const firstScreen = readRepoFile('README.md').split('\n').slice(0, 40).join('\n');
    expect(firstScreen).toContain('(docs/concepts-and-customising.md)');
    expect(firstScreen).toContain('(docs/production-checklist.md)');
  });

  test('when a document in docs/ names an UPPER_CASE setting, then some env.ts or the compose file reads it', () => {
    const known = knownSettings();
    let sources: string[] | undefined;
    const unknown = docs.flatMap((file) =>
      [...namesIn(readRepoFile(join('docs', file)))]
        .filter((name) => !known.has(name))
        .filter((name) => !declaredInCode(name, (sources ??= sourceFiles())))
        .map((name) => `${file}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});
