import { groundedAnswer, passagesIn } from './help-center.js';
import { asSentence, joinWithOr } from './sentences.js';

type Fields = Record<string, unknown>;

const IDENTITY = /(^|_)(id|number|no|reference)$/;
const NAMED = /^(service|system|component|product|plan|name)$/;
const OWNER = /^(customer|account|company|owner|user)(_name)?$/;
const STATUS = /^(status|state)$/;
const AMOUNT = /^(amount|total|price|balance|amount_due)$/;
const DATE_KEY = /(_on|_at|_date)$/;
const NARRATION = /^(message|description|note|details)$/;
const KNOWN_LIST = /^(known|available|valid)_/;
const TICKET = /ticket/;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function humanKey(key: string): string {
  return key.replace(/[_.]/g, ' ');
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

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** `2025-02-04` → "4 February 2025"; anything else as it is. */
function dateWords(value: unknown): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(value));
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  return m && month ? `${Number(m[3])} ${month} ${m[1]}` : String(value);
}

/** "is open", but "has an outage": a status may be a state or a thing that happens. */
function stateWords(status: string): string {
  if (!/^(outage|incident|error|issue|problem)$/i.test(status)) return `is ${status}`;
  return `has ${/^[aeiou]/i.test(status) ? 'an' : 'a'} ${status}`;
}

function listWords(value: unknown): string {
  return Array.isArray(value)
    ? joinWithOr(
        value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))),
        'and',
      )
    : typeof value === 'object' && value !== null
      ? JSON.stringify(value)
      : String(value);
}

function firstKey(fields: Fields, pattern: RegExp): string | undefined {
  return Object.keys(fields).find((k) => pattern.test(k.toLowerCase()));
}

/** What the result is about: "invoice INV-1001", "the api service", or nothing. */
function subjectOf(fields: Fields): { phrase: string; key: string } | undefined {
  const id = firstKey(fields, IDENTITY);
  if (id) {
    const noun = humanKey(id.replace(IDENTITY, ''));
    return { phrase: noun ? `${noun} ${String(fields[id])}` : String(fields[id]), key: id };
  }
  const named = firstKey(fields, NAMED);
  if (!named) return undefined;
  const value = String(fields[named]);
  return { phrase: named === 'name' ? value : `the ${value} ${humanKey(named)}`, key: named };
}

/** The message's sentences, minus a first one that only repeats "not found" and a list said already. */
function narration(fields: Fields, notFound: boolean, listed: boolean): string[] {
  const key = firstKey(fields, NARRATION);
  if (!key) return [];
  const sentences = toTheUser(String(fields[key]))
    .split(/(?<=[.!?])\s+/)
    .filter(Boolean);
  return sentences
    .filter((s, i) => !(notFound && i === 0 && /^(no|not|unknown|could not)\b/i.test(s)))
    .filter((s) => !(listed && /^(known|available|valid)\b/i.test(s)))
    .map(asSentence);
}

/** Fields no sentence above used, said one by one ("Its queue is humans."). */
function leftovers(fields: Fields, used: Set<string>): string[] {
  return Object.entries(fields)
    .filter(([k, v]) => !used.has(k) && !(k === 'found' && v === true))
    .slice(0, 6)
    .map(([k, v]) =>
      asSentence(
        `Its ${humanKey(k)} ${Array.isArray(v) && v.length > 1 ? 'are' : 'is'} ${listWords(v)}`,
      ),
    );
}

function notFoundAnswer(fields: Fields): string[] {
  const subject = subjectOf(fields);
  const knownKey = firstKey(fields, KNOWN_LIST);
  const known = knownKey && Array.isArray(fields[knownKey]) ? fields[knownKey] : undefined;
  const what = !subject
    ? 'it'
    : IDENTITY.test(subject.key)
      ? subject.phrase
      : `a ${humanKey(subject.key)} called "${String(fields[subject.key])}"`;
  return [
    `I could not find ${what}.`,
    ...(known ? [`I can check ${joinWithOr(known.map(String))}.`] : []),
    ...narration(fields, true, known !== undefined),
  ];
}

function ticketAnswer(fields: Fields, ticketKey: string): string[] {
  const priorityKey = firstKey(fields, /priority/);
  const priority = priorityKey ? String(fields[priorityKey]) : undefined;
  // The tool's narration and the summary repeat what the user said; the status of a new ticket goes without saying.
  const used = new Set(
    Object.keys(fields).filter((k) => /ticket|priority|message|summary|status/i.test(k)),
  );
  return [
    `I have opened ticket ${String(fields[ticketKey])} for you${priority ? ` with ${priority} priority` : ''}.`,
    'I have asked a colleague to contact you.',
    ...leftovers(fields, used),
  ];
}

/** "Invoice INV-1001 for Acme GmbH is open: 1250.00 EUR, due on 4 February 2025." or "I have checked …: it is …". */
function factsAnswer(fields: Fields): string[] {
  const used = new Set<string>(['found']);
  const take = (pattern: RegExp) => {
    const key = firstKey(fields, pattern);
    if (key) used.add(key);
    return key;
  };
  const subject = subjectOf(fields);
  if (subject) used.add(subject.key);
  const owner = take(OWNER);
  const status = take(STATUS);
  const amount = take(AMOUNT);
  const currency = amount ? take(/^currency$/) : undefined;
  const details: string[] = [];
  if (amount) {
    const value = fields[amount];
    const money = typeof value === 'number' ? value.toFixed(2) : String(value);
    const sum = currency ? `${money} ${String(fields[currency])}` : money;
    details.push(amount === 'amount' ? sum : `${humanKey(amount)} ${sum}`);
  }
  for (const key of Object.keys(fields).filter((k) => DATE_KEY.test(k) && !used.has(k))) {
    used.add(key);
    details.push(`${humanKey(key.replace(/_(on|at|date)$/, ''))} on ${dateWords(fields[key])}`);
  }
  const narrationKey = firstKey(fields, NARRATION);
  if (narrationKey) used.add(narrationKey);
  const forWhom = owner ? ` for ${String(fields[owner])}` : '';
  const state = status ? stateWords(String(fields[status])) : undefined;
  const lead =
    subject && details.length > 0
      ? `${capitalised(subject.phrase)}${forWhom}${state ? ` ${state}` : ''}: ${details.join(', ')}.`
      : `I have checked ${subject?.phrase ?? 'this for you'}${forWhom}${state ? `: it ${state}` : ''}${
          details.length > 0 ? ` (${details.join(', ')})` : ''
        }.`;
  return [lead, ...narration(fields, false, false), ...leftovers(fields, used)];
}

function answerSentences(result: unknown): string[] {
  const value = parsedResult(result);
  if (typeof value === 'string') return [asSentence(capitalised(toTheUser(value)))];
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return [asSentence(`I have checked this for you: ${listWords(value)}`)];
  // Keys as snake_case, so `invoiceId` reads like `invoice_id`.
  const fields = Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase(), v]),
  );
  const passages = passagesIn(fields);
  if (passages) return groundedAnswer(passages);
  const ticketKey = firstKey(fields, TICKET);
  if (ticketKey) return ticketAnswer(fields, ticketKey);
  if (fields['found'] === false) return notFoundAnswer(fields);
  return factsAnswer(fields);
}

/**
 * A first-person answer from what the called tools returned, as a person would say it: an opened
 * ticket first, a found record as one sentence, a miss plainly ("I could not find invoice
 * INV-9999."), never the tool's name or a list of its keys.
 */
export function composeToolAnswer(results: Array<{ name: string; result: unknown }>): string {
  return [
    ...results.flatMap((r) => answerSentences(r.result)),
    'Is there anything else I can help with?',
  ].join(' ');
}
