/** The parts of an email (or any user message) that a reply quotes or paraphrases. */
export interface EmailParts {
  senderName: string | undefined;
  subject: string | undefined;
  body: string;
  firstSentence: string;
}

const HEADER = /^(from|to|cc|subject|date|sent|reply-to)\s*:/i;

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
  return first.length > 160 ? `${first.slice(0, 157).trimEnd()}...` : first;
}

export function emailPartsOf(text: string): EmailParts {
  const body = text
    .split('\n')
    .filter((line) => !HEADER.test(line.trim()))
    .join('\n')
    .trim();
  return {
    senderName: senderNameOf(text),
    subject: /^subject\s*:\s*(.+)$/im.exec(text)?.[1]?.trim(),
    body,
    firstSentence: firstSentenceOf(body),
  };
}
