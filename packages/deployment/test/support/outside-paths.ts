import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';

/** A place in a file that points outside the repository root. */
export interface OutsideReference {
  file: string;
  line: number;
  text: string;
  why: string;
}

/**
 * A relative path with at least one `..` segment: `../x`, `'..'`, `./../..`. Not a spread (`...args`)
 * nor a range (`a..b`): the `..` is a whole segment.
 */
const RELATIVE_WITH_PARENT = /(?<![\w.$/-])((?:\.{1,2}\/)*\.\.(?![.\w])(?:\/[^\s'"`),;}\]]*)?)/g;

/**
 * Places that are outside any checkout by name: the shared folder beside the checkouts (which once held
 * the vendored specifications) and the machine's work directory where checkouts live.
 */
const NAMED_OUTSIDE: { pattern: RegExp; why: string }[] = [
  { pattern: /(?<![\w-])shared\/specs\b/, why: 'the shared specs folder beside the repository' },
  { pattern: /\.\.\/shared\b/, why: 'a shared folder beside the repository' },
  {
    pattern: /(?<![\w.])\/work\//,
    why: 'an absolute path on the machine that holds the checkouts',
  },
];

/** What a tracked file refers to outside `root`: relative paths that climb above it, and named outside places. */
export function outsideReferences(root: string, file: string, text: string): OutsideReference[] {
  const found: OutsideReference[] = [];
  const from = dirname(resolve(root, file));
  text.split('\n').forEach((content, index) => {
    for (const match of content.matchAll(RELATIVE_WITH_PARENT)) {
      const target = resolve(from, match[1]!);
      const fromRoot = relative(root, target);
      if (fromRoot.startsWith('..') || isAbsolute(fromRoot))
        found.push({
          file,
          line: index + 1,
          text: content.trim(),
          why: `${match[1]} leaves the root`,
        });
    }
    for (const { pattern, why } of NAMED_OUTSIDE)
      if (pattern.test(content)) found.push({ file, line: index + 1, text: content.trim(), why });
  });
  return found;
}

/** Documentation may describe the world outside; generated and vendored files are not the project's code. */
const NOT_CHECKED = [
  /\.md$/,
  /\.(png|svg|jpg|ico)$/,
  /^pnpm-lock\.yaml$/,
  /^packages\/llm-emulator\/spec\//,
];

/** The project's tracked sources, tests, scripts and configuration, as git lists them. */
export function checkedFiles(root: string): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file && !NOT_CHECKED.some((pattern) => pattern.test(file)));
}

export function outsideReferencesIn(root: string): OutsideReference[] {
  return checkedFiles(root).flatMap((file) =>
    outsideReferences(root, file, readFileSync(resolve(root, file), 'utf8')),
  );
}
