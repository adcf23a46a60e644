import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** The help center the services were given (KB_DIR): each article's slug and text. */
export type KnowledgeBase = Map<string, string>;

/** Reads the markdown articles of a help center folder (slug from the front matter, else the file name). */
export function readKnowledgeBase(dir: string): KnowledgeBase {
  const kb: KnowledgeBase = new Map();
  if (!existsSync(dir)) return kb;
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.md')) continue;
    const text = readFileSync(join(dir, name), 'utf8');
    const slug = /^---[\s\S]*?^slug:\s*([a-z0-9-]+)\s*$/m.exec(text)?.[1] ?? basename(name, '.md');
    kb.set(slug, text);
  }
  return kb;
}
