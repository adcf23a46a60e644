import type { JsonSchema, ToolCall, ToolSpec } from './task.js';

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
