import { extractId, extractService } from './string-hints.js';
import { joinWithOr } from './sentences.js';
import { indexText } from './text-index.js';
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

const SERVICE_FIELD = /(^|_)(service|system|component)(_?name)?$/;

/** The values a field lists for itself: its enum, or "one of a, b, c" in its description. */
function listedValues(schema: JsonSchema | undefined): string[] {
  if (Array.isArray(schema?.['enum'])) return schema['enum'].map(String);
  const description = typeof schema?.['description'] === 'string' ? schema['description'] : '';
  const list = /\bone of:?\s*([^.;]+)/i.exec(description)?.[1];
  return list
    ? list
        .split(/,\s*|\s+or\s+/)
        .map((v) => v.trim())
        .filter(Boolean)
    : [];
}

/**
 * When a tool needs a service and the text names none ("is something down?"), the services a model would offer to
 * check (the field's own list, maybe empty); undefined when the text names one or the tool needs no service.
 */
export function missingService(tool: ToolSpec, userText: string): string[] | undefined {
  const params = (tool.parameters ?? {}) as JsonSchema;
  const properties = (params['properties'] as Record<string, JsonSchema> | undefined) ?? {};
  const required = Array.isArray(params['required'])
    ? (params['required'] as string[])
    : Object.keys(properties);
  const field = required.find((name) => SERVICE_FIELD.test(fieldName(name)));
  if (!field || extractService(userText, indexText(userText)) !== undefined) return undefined;
  return listedValues(properties[field]);
}

export function askForService(known: string[]): string {
  return known.length > 0
    ? `Which service do you mean? I can check ${joinWithOr(known)}.`
    : 'Which service do you mean? Tell me its name and I will check it.';
}
