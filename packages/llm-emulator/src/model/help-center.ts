import type { JsonSchema, ToolCall, ToolSpec } from './task.js';
import { contentWords } from './text-index.js';

const SEARCH_NAME = /search|knowledge|help_?center|faq/i;
const QUERY_FIELD = /^(query|q|question)$/;

/** The field a search tool takes the question in: a string `query` (or `q`, `question`). */
function queryField(tool: ToolSpec): { key: string; maxLength: number | undefined } | undefined {
  const properties = ((tool.parameters ?? {})['properties'] ?? {}) as Record<string, JsonSchema>;
  for (const [key, schema] of Object.entries(properties)) {
    const type = String(schema['type'] ?? '').toLowerCase();
    if (QUERY_FIELD.test(key) && type === 'string')
      return {
        key,
        maxLength: typeof schema['maxLength'] === 'number' ? schema['maxLength'] : undefined,
      };
  }
  return undefined;
}

/** A help center / knowledge base search tool (`search_help_center`): named so, taking a query string. */
export function isSearchTool(tool: ToolSpec): boolean {
  return SEARCH_NAME.test(tool.name) && queryField(tool) !== undefined;
}

/** Searching with the user's question as they wrote it. */
export function searchCall(tool: ToolSpec, question: string): ToolCall {
  const field = queryField(tool)!;
  const query = question.trim();
  return {
    name: tool.name,
    args: { [field.key]: field.maxLength ? query.slice(0, field.maxLength) : query },
  };
}

interface Passage {
  slug: string;
  text: string;
}

/** The passages of a search result (`passages` or `hits`, each with a slug and its text), or undefined. */
export function passagesIn(fields: Record<string, unknown>): Passage[] | undefined {
  const list = fields['passages'] ?? fields['hits'];
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((item: unknown) => {
    const p = item as Record<string, unknown>;
    const text = p['text'] ?? p['passage'];
    return typeof p['slug'] === 'string' && typeof text === 'string'
      ? [{ slug: p['slug'], text }]
      : [];
  });
}

/** Markdown as plain sentences: no emphasis marks, headings, list bullets or link targets. */
function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|`)/g, '')
    .replace(/^\s*(#+|[-*+]|\d+\.)\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * An answer grounded in the passages a search returned: the first passage's first two sentences,
 * citing its article as `[kb:slug]`; with none, that it does not know, and the offer of a ticket.
 */
export function groundedAnswer(passages: Passage[]): string[] {
  const best = passages[0];
  if (!best)
    return [
      "I don't know the answer to that, and our help center does not cover it.",
      'I can open a ticket so that a colleague answers you.',
    ];
  const sentences = plainText(best.text)
    .split(/(?<=[.!?])\s+/)
    .slice(0, 2)
    .join(' ');
  return [`${sentences} [kb:${best.slug}]`];
}

/**
 * The passages a draft prompt hands the model (email-review's draft step): after the line
 * `Help center passages…`, each passage is a line `[kb:slug] Title` followed by its text, up to
 * `End of the help center passages.`
 */
export function passagesInPrompt(system: string): Passage[] {
  const start = system.search(/^Help center passages\b.*$/m);
  if (start < 0) return [];
  const end = system.indexOf('End of the help center passages.', start);
  const block = system.slice(start, end < 0 ? undefined : end);
  const passages: Passage[] = [];
  for (const part of block.split(/^(?=\[kb:[^\]\s]+\])/m).slice(1)) {
    const [header = '', ...lines] = part.split('\n');
    const slug = /^\[kb:([^\]\s]+)\]/.exec(header)?.[1];
    const title = header.replace(/^\[kb:[^\]\s]+\]\s*/, '');
    if (slug) passages.push({ slug, text: `${title}\n${lines.join('\n')}`.trim() });
  }
  return passages;
}

/** The prompt says no article answers the email: the drafter promises to check instead. */
export const NO_ARTICLE = /^No help center article answers this email\b/m;

export const CHECK_SENTENCE =
  'I am checking this with our team and will get back to you with a precise answer.';

/**
 * The sentence a draft answers from: the first two sentences of the passage sharing most of the
 * email's words (4+ letters; the first of equals wins), citing it; no shared word, or the prompt's
 * "no article" line: the promise to check.
 */
export function groundedSentence(system: string, request: string): string | undefined {
  const words = new Set(contentWords(request).filter((w) => w.length >= 4));
  let best: { passage: Passage; shared: number } | undefined;
  const passages = passagesInPrompt(system);
  for (const passage of passages) {
    const shared = new Set(contentWords(passage.text).filter((w) => words.has(w))).size;
    if (shared > 0 && shared > (best?.shared ?? 0)) best = { passage, shared };
  }
  if (best) {
    const body = best.passage.text.split('\n').slice(1).join('\n');
    return groundedAnswer([{ slug: best.passage.slug, text: body }])[0];
  }
  return passages.length > 0 || NO_ARTICLE.test(system) ? CHECK_SENTENCE : undefined;
}
