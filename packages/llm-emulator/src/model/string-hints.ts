import { topicOf } from './intents.js';
import { emailPartsOf } from './email-parts.js';
import { cutWithEllipsis } from './sentences.js';
import type { TextIndex } from './text-index.js';

/** What a generated value is for: the model's own answer, or arguments for a tool it calls. */
export type ValueMode = 'response' | 'arguments';

export interface ValueContext {
  root: Record<string, unknown>;
  mode: ValueMode;
  userText: string;
  text: TextIndex;
  reply: () => string;
  /** A one-line summary; `category` is the category the same answer chose, when it chose one. */
  summary: (category?: string) => string;
  /** The category chosen so far in the object being generated (a summary beside it names the same one). */
  category?: string;
}

const SERVICE_WORDS = [
  'api',
  'website',
  'site',
  'web',
  'app',
  'dashboard',
  'database',
  'db',
  'email',
  'login',
  'auth',
  'payments',
  'checkout',
  'search',
  'mobile',
  'portal',
  'billing',
  'storage',
  'cdn',
  'queue',
];

/** Words that name no service ("is something down?"): a model asks which one instead of checking "something". */
const VAGUE_NAMES = new Set([
  'it',
  'this',
  'that',
  'there',
  'everything',
  'something',
  'anything',
  'nothing',
  'stuff',
  'thing',
  'all',
]);

export function extractId(text: string, preferPrefix?: string): string | undefined {
  const ids = text.match(/\b[A-Za-z]{2,6}-\d{2,}\b/g) ?? [];
  const preferred = preferPrefix
    ? ids.find((id) => id.toLowerCase().startsWith(preferPrefix))
    : undefined;
  return preferred ?? ids[0] ?? text.match(/#(\d{3,})\b/)?.[1];
}

export function extractService(userText: string, text: TextIndex): string | undefined {
  const named =
    /\bis (?:the |your |our )?([a-z][\w-]*) (?:service |server )?(?:down|up|working|broken|slow|offline)\b/i.exec(
      userText,
    )?.[1];
  if (named && !VAGUE_NAMES.has(named.toLowerCase())) return named.toLowerCase();
  return SERVICE_WORDS.find((w) => text.words.includes(w));
}

function excerpt(text: string, max: number): string {
  return cutWithEllipsis(text.replace(/\s+/g, ' ').trim(), max);
}

function has(name: string, pattern: RegExp): boolean {
  return pattern.test(name);
}

/** A plausible string for a field, chosen from its name and the user's text. */
export function stringHint(rawName: string, ctx: ValueContext): string {
  const name = rawName.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
  const email = () => emailPartsOf(ctx.userText);
  if (has(name, /invoice/)) return extractId(ctx.userText, 'inv') ?? 'INV-0001';
  if (has(name, /(ticket|order|case|booking|transaction|reference|ref)(_?(id|number|no))?$|^id$/))
    return extractId(ctx.userText) ?? 'REF-0001';
  if (has(name, /e_?mail|address/))
    return ctx.userText.match(/[\w.+-]+@[\w-]+\.[\w.]+/)?.[0] ?? 'customer@example.com';
  if (has(name, /service|system|component|product|endpoint|^app/))
    return extractService(ctx.userText, ctx.text) ?? 'api';
  if (has(name, /priority|severity|urgency/))
    return topicOf(ctx.text) === 'general' ? 'normal' : 'high';
  if (has(name, /(^|_)(category|type|topic|intent|department|queue|label)$/))
    return topicOf(ctx.text);
  if (has(name, /(^|_)(name|customer|sender)$/)) return email().senderName ?? 'Customer';
  if (has(name, /subject|title|headline/))
    return email().subject ? `Re: ${email().subject}` : excerpt(email().firstSentence, 60);
  if (has(name, /language|locale|lang/)) return 'en';
  if (ctx.mode === 'response') {
    if (has(name, /reason|rationale|explanation|justification|why/)) {
      const topic = topicOf(ctx.text);
      return `The message is about ${topic === 'escalation' ? 'an' : 'a'} ${topic} matter: "${excerpt(email().firstSentence, 100)}"`;
    }
    if (has(name, /summary|gist|overview|synopsis/)) return ctx.summary(ctx.category);
    if (has(name, /reply|draft|body|response|answer|message|content|text|email/))
      return ctx.reply();
  } else if (
    has(
      name,
      /description|details|issue|summary|reason|rationale|query|question|message|text|complaint|problem|note|content|body|why/,
    )
  ) {
    return excerpt(ctx.userText, 300);
  }
  return excerpt(email().firstSentence, 80);
}
