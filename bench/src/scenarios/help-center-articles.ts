import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../repo-paths.js';

/** A help center folder the services load (KB_DIR); `remove()` deletes it. */
export interface HelpCenterFolder {
  dir: string;
  articles: number;
  remove(): Promise<void>;
}

/** mulberry32: a seeded generator, so every run loads the same articles. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Articles as a large help center's, made from the sample help center's vocabulary: half the
 * words from the samples (the common ones far more often), half from 30,000 made-up terms
 * (product names, places, codes) drawn by Zipf's law, as a real help center's long tail; three
 * headed sections of two paragraphs each. The design of packages/knowledge/scripts/measure-search.mjs.
 */
function articleWriter(sampleBodies: string[]) {
  const random = seededRandom(42);
  const words = [
    ...new Set(sampleBodies.flatMap((body) => body.toLowerCase().match(/[a-z]{3,}/g) ?? [])),
  ];
  const rare = Array.from({ length: 30_000 }, (_, i) => `term${i.toString(36)}`);
  const harmonic = rare.reduce((sum, _, i) => sum + 1 / (i + 1), 0);
  const zipf = () => {
    let left = random() * harmonic;
    for (let i = 0; i < rare.length; i += 1) if ((left -= 1 / (i + 1)) <= 0) return rare[i]!;
    return rare[rare.length - 1]!;
  };
  const word = () => (random() < 0.5 ? words[Math.floor(words.length * random() ** 2.5)]! : zipf());
  const some = (count: number) => Array.from({ length: count }, word).join(' ');
  const sentence = () => {
    const text = some(8 + Math.floor(random() * 10));
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = () => Array.from({ length: 2 + Math.floor(random() * 3) }, sentence).join(' ');
  return () => {
    const sections = [1, 2, 3].map(() => `## ${some(3)}\n\n${paragraph()}\n\n${paragraph()}`);
    return `---\ntitle: ${some(4)}\ntags: [${word()}]\n---\n\n${sections.join('\n\n')}\n`;
  };
}

/**
 * A temporary help center folder of `articles` articles: the sample help center's 20 (which the
 * bench's emails and questions are about) and generated ones (`article-<n>.md`) for the rest.
 */
export async function writeHelpCenterFolder(articles: number): Promise<HelpCenterFolder> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-help-center-'));
  const names = (await readdir(paths.sampleHelpCenter)).filter((name) => name.endsWith('.md'));
  const samples = await Promise.all(
    names.map((name) => readFile(join(paths.sampleHelpCenter, name), 'utf8')),
  );
  await Promise.all(names.map((name, i) => writeFile(join(dir, name), samples[i]!)));
  const article = articleWriter(samples);
  const generated = Array.from(
    { length: Math.max(0, articles - samples.length) },
    (_, i) => `article-${String(samples.length + i).padStart(5, '0')}.md`,
  );
  for (const name of generated) await writeFile(join(dir, name), article());
  return {
    dir,
    articles: names.length + generated.length,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
