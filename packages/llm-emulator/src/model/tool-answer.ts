import { asSentence } from './sentences.js';

function flatten(value: unknown, prefix: string, out: Array<[string, string]>): void {
  if (out.length >= 12) return;
  if (value === null || typeof value !== 'object') {
    out.push([prefix, String(value)]);
    return;
  }
  if (Array.isArray(value)) {
    out.push([
      prefix,
      value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', '),
    ]);
    return;
  }
  for (const [key, v] of Object.entries(value)) flatten(v, prefix ? `${prefix} ${key}` : key, out);
}

function humanKey(key: string): string {
  return key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_.]/g, ' ')
    .toLowerCase();
}

function parsedResult(result: unknown): unknown {
  if (typeof result !== 'string') return result;
  try {
    return JSON.parse(result) as unknown;
  } catch {
    return result;
  }
}

/** A tool's own words about the user ("the customer") said to the user ("you"). */
function toTheUser(text: string): string {
  return text.replace(/\bthe customer's\b/gi, 'your').replace(/\bthe customer\b/gi, 'you');
}

/**
 * A first-person text answer that states what the called tools returned. An opened ticket comes first, said
 * as what the assistant did ("I have opened ticket …; I have asked a colleague to contact you"), without the
 * tool's own narration of it or the summary that repeats the user's words.
 */
export function composeToolAnswer(results: Array<{ name: string; result: unknown }>): string {
  const facts: Array<[string, string]> = [];
  for (const r of results) {
    const value = parsedResult(r.result);
    if (typeof value === 'string') facts.push(['result', value]);
    else flatten(value, '', facts);
  }
  const ticket = facts.find(([k]) => /ticket/i.test(k))?.[1];
  const priority = facts.find(([k]) => /priority/i.test(k))?.[1];
  const listed = facts
    .filter(([k]) => !ticket || !/ticket|priority|message|summary/i.test(k))
    .filter(([k, v]) => !(k === 'found' && v === 'true'))
    .map(([k, v]) => toTheUser(k === 'result' || k === '' ? v : `${humanKey(k)}: ${v}`))
    .join('; ');
  const tools = results.map((r) => r.name).join(', ');
  const sentences = ticket
    ? [
        `I have opened ticket ${ticket} for you${priority ? ` with ${priority} priority` : ''}.`,
        'I have asked a colleague to contact you.',
        ...(listed ? [asSentence(`Details: ${listed}`)] : []),
      ]
    : [
        `I have checked this for you with ${tools}.`,
        ...(listed ? [asSentence(`Result: ${listed}`)] : []),
      ];
  return [...sentences, 'Is there anything else I can help with?'].join(' ');
}
