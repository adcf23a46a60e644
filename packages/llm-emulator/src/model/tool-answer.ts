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

/** A text answer that states what the called tools returned, ticket ids first. */
export function composeToolAnswer(results: Array<{ name: string; result: unknown }>): string {
  const facts: Array<[string, string]> = [];
  for (const r of results) {
    const value = parsedResult(r.result);
    if (typeof value === 'string') facts.push(['result', value]);
    else flatten(value, '', facts);
  }
  const ticket = facts.find(([k]) => /ticket/i.test(k));
  const listed = facts
    .filter((f) => f !== ticket)
    .map(([k, v]) => (k === 'result' || k === '' ? v : `${humanKey(k)}: ${v}`))
    .join('; ');
  const tools = results.map((r) => r.name).join(', ');
  const sentences = [
    ticket
      ? `I have taken care of it: your ticket id is ${ticket[1]}.`
      : `I have checked this for you with ${tools}.`,
    ...(listed ? [`${ticket ? 'Details' : 'Result'}: ${listed}.`] : []),
    'Is there anything else I can help with?',
  ];
  return sentences.join(' ');
}
