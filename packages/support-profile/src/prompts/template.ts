/** `{{ name }}`: a variable in a prompt template. Nothing else is special; a single `{` is text. */
const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The variable names a template uses, in order of first use. */
export function variablesIn(template: string): string[] {
  return [...new Set([...template.matchAll(VARIABLE)].map((m) => m[1] ?? ''))];
}

/**
 * The template with each variable replaced by its value, in one pass: a value that itself holds `{{…}}` (a
 * reviewer's instructions, a profile field) is left as written.
 */
export function renderTemplate(template: string, values: Record<string, string>): string {
  return template.replace(VARIABLE, (match, name: string) => values[name] ?? match);
}
