import { cutWithEllipsis } from './sentences.js';

/** The parts of an email (or any user message) that a reply quotes or paraphrases. */
export interface EmailParts {
  senderName: string | undefined;
  subject: string | undefined;
  body: string;
  firstSentence: string;
}

const HEADER = /^(from|to|cc|subject|date|sent|reply-to)\s*:/i;

// A closing such as "Thanks, Dana" or "Best,\nMaria Lopez" at the very end, or a "-- Dana" signature line.
const CLOSING =
  /(?:^|[.!?]\s+|\n)\s*(?:many thanks|thanks|thank you|best regards|kind regards|warm regards|best wishes|all the best|regards|best|cheers|sincerely|yours(?: truly| sincerely)?|--|\u2014)\s*[,.!]?\s*([\p{L}'-]+)(?:\s+[\p{L}'-]+)?\s*$/iu;

/** The first name the email is signed with, if it ends with a closing and a capitalised name. */
function signerNameOf(body: string): string | undefined {
  const name = CLOSING.exec(body.trim())?.[1];
  return name && /^\p{Lu}/u.test(name) ? name : undefined;
}

function senderNameOf(text: string): string | undefined {
  const from = /^from\s*:\s*(.+)$/im.exec(text)?.[1]?.trim();
  if (!from) return undefined;
  const named = /^"?([^<"@]+?)"?\s*<[^>]+>$/.exec(from)?.[1];
  if (named) return named.trim().split(/\s+/)[0];
  const local = /^([a-z]+)[._-]?[a-z]*@/i.exec(from)?.[1];
  if (local) return local.charAt(0).toUpperCase() + local.slice(1).toLowerCase();
  return from.includes('@') ? undefined : from.split(/\s+/)[0];
}

function firstSentenceOf(body: string): string {
  const sentences = body
    .replace(/^(hi|hello|dear|hey)\b[^\n,]*,?\s*$/gim, '')
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.split(/\s+/).length >= 3);
  const first = sentences[0] ?? body.trim();
  return cutWithEllipsis(first, 160);
}

export function emailPartsOf(text: string): EmailParts {
  const body = text
    .split('\n')
    .filter((line) => !HEADER.test(line.trim()))
    .join('\n')
    .trim();
  return {
    senderName: senderNameOf(text) ?? signerNameOf(body),
    subject: /^subject\s*:\s*(.+)$/im.exec(text)?.[1]?.trim(),
    body,
    firstSentence: firstSentenceOf(body),
  };
}
