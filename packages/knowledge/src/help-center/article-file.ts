import { basename, extname } from 'node:path';
import { parse } from 'yaml';
import { articleInputSchema, type ArticleFields } from '../articles/article.js';
import { InvalidArticle } from '../articles/knowledge-errors.js';

/** `---`, the YAML, `---`, then the markdown body. */
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

const invalid = (message: string) =>
  new InvalidArticle(message, [{ path: '(front matter)', message }]);

/** The file's name without `.md`: the slug of a file whose front matter names none. */
export const slugOfFileName = (fileName: string) =>
  basename(fileName, extname(fileName)).toLowerCase();

/**
 * A help center file as an article: front matter (`title`; `slug`, `language`, `tags` optional)
 * and a markdown body. Throws InvalidArticle when the front matter is missing, is not YAML, or
 * does not make a valid article.
 */
export function parseArticleFile(text: string, fileName: string): ArticleFields {
  const match = FRONT_MATTER.exec(text);
  if (!match) throw invalid('The file does not start with front matter (a --- line).');
  let meta: unknown;
  try {
    meta = parse(match[1]!);
  } catch (error) {
    throw invalid(`The front matter is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta))
    throw invalid('The front matter is not a YAML mapping (key: value lines).');
  const fields = meta as Record<string, unknown>;
  const parsed = articleInputSchema.safeParse({
    slug: fields['slug'] ?? slugOfFileName(fileName),
    title: fields['title'],
    language: fields['language'],
    tags: fields['tags'],
    body: text.slice(match[0].length).trim(),
  });
  if (!parsed.success) throw InvalidArticle.of(parsed.error);
  return parsed.data;
}
