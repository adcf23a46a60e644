import { extractId } from './string-hints.js';
import type { JsonSchema, ToolSpec } from './task.js';

const REFERENCE_FIELD =
  /^(invoice|order|ticket|case|booking|transaction|reference)(_?(id|number|no))?$|^id$/;

function fieldName(raw: string): string {
  return raw.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

/** What a reference field refers to: `invoice_id` → "invoice"; a bare `id` takes the tool's subject. */
function subjectOf(field: string, tool: ToolSpec): string {
  const named = /^([a-z]+)/.exec(field)?.[1];
  if (named && named !== 'id') return named;
  const fromTool = /(invoice|order|ticket|case|booking|transaction)/i.exec(tool.name)?.[1];
  return fromTool?.toLowerCase() ?? 'reference';
}

/**
 * The thing a tool needs to be identified by (an invoice, an order…) when the user's text gives no id for it:
 * a cooperative model asks for the number instead of making one up.
 */
export function missingReference(tool: ToolSpec, userText: string): string | undefined {
  const params = (tool.parameters ?? {}) as JsonSchema;
  const properties = Object.keys((params['properties'] as JsonSchema | undefined) ?? {});
  const required = Array.isArray(params['required'])
    ? (params['required'] as string[])
    : properties;
  const field = required.map(fieldName).find((name) => REFERENCE_FIELD.test(name));
  if (!field || extractId(userText) !== undefined) return undefined;
  return subjectOf(field, tool);
}

export function askForReference(subject: string): string {
  return `Could you tell me the ${subject} number? Then I can look it up for you.`;
}
