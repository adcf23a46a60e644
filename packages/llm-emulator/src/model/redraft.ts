import { emailPartsOf } from './email-parts.js';
import type { Feedback } from './feedback.js';
import {
  APOLOGY,
  greetingFor,
  mentionSentences,
  MORE_DETAIL,
  signOffFor,
  type ReplyRequest,
} from './reply-text.js';

const GREETING =
  /^\s*((?:hi|hello|hey|dear|good (?:morning|afternoon|evening))\b[^,\n]{0,40},)\s*/i;
const GENERIC_GREETING = /^(?:hi|hello|hey|dear) (?:there|customer|sir or madam)\b/i;
const SIGN_OFF =
  /\s*\b((?:best regards|kind regards|warm regards|best wishes|all the best|regards|best|cheers|sincerely|thanks|thank you)\s*[,.!]?)\s*([^\n.!?]{0,40}?)\s*$/i;
// Sentences a shorter draft does without: thanks for writing, the quote of the email, offers of more help.
const OFFER = /^(?:please let us know if|please do not hesitate|i hope this helps)/i;
const FILLER =
  /^(?:(?:thank you|thanks) for (?:your|the) (?:e-?mail|message|note)\b|you wrote:|please let us know if|please do not hesitate|we will share every detail|i hope this helps)/i;

interface DraftParts {
  greeting: string | undefined;
  sentences: string[];
  signOff: string | undefined;
}

/** Splits a draft, as the model wrote it or as a reviewer edited it (possibly on one line), into its parts. */
function partsOf(draft: string): DraftParts {
  let rest = draft.trim();
  const greeting = GREETING.exec(rest);
  if (greeting) rest = rest.slice(greeting[0].length);
  const signOff = SIGN_OFF.exec(rest);
  if (signOff) rest = rest.slice(0, signOff.index);
  const sentences = rest
    .split(/(?<=[.!?]["')\]]?)\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
  return {
    greeting: greeting?.[1],
    sentences,
    signOff: signOff ? [signOff[1], signOff[2]].filter(Boolean).join('\n') : undefined,
  };
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const normalized = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');

/** The greeting to keep: the draft's own (a reviewer may have written it), unless it names nobody. */
function greetingOf(current: string | undefined, userText: string, feedback: Feedback): string {
  const computed = greetingFor(emailPartsOf(userText).senderName, feedback.formal);
  if (!current || GENERIC_GREETING.test(current)) return computed;
  return feedback.formal ? current.replace(/^(?:hi|hello|hey)\b/i, 'Dear') : current;
}

/** Drops filler, then the draft's own sentences from the end, until the body is visibly shorter (mentions stay). */
function shortened(sentences: string[], added: Set<string>, before: number): string[] {
  let kept = sentences.filter((sentence) => added.has(sentence) || !FILLER.test(sentence));
  const length = () => kept.join(' ').length;
  for (let i = kept.length - 1; i >= 0 && length() >= before * 0.8 && kept.length > 1; i--) {
    const sentence = kept[i]!;
    if (!added.has(sentence) && i > 0) kept = kept.filter((_, index) => index !== i);
  }
  return kept;
}

/**
 * A new draft from the previous one (the model's, or the reviewer's edit of it) that applies the reviewer's
 * instructions to it, as a real model does: its sentences stay unless "shorter" asks to drop some, what it must
 * say is added once, and the greeting names the sender when the email is signed.
 */
export function redraft(previous: string, request: ReplyRequest): string {
  const { userText, feedback, asEmail, signature } = request;
  // The team's signature may run over several lines the generic sign-off pattern would take for sentences.
  const signed = signature !== undefined && previous.trimEnd().endsWith(signature);
  const draft = partsOf(signed ? previous.trimEnd().slice(0, -signature.length) : previous);
  if (signed) draft.signOff = signature;
  const text = normalized(draft.sentences.join(' '));
  const noted = /please note that/i.test(text);
  const mentions = feedback.mentions.filter((mention) => !text.includes(normalized(mention)));
  const apology = feedback.apologize && !/\b(?:sorry|apologi[sz]e)/i.test(text) ? [APOLOGY] : [];
  const additions = [
    ...mentionSentences(mentions, userText, noted),
    ...(feedback.longer && !text.includes(normalized(MORE_DETAIL)) ? [MORE_DETAIL] : []),
  ];
  const added = new Set([...apology, ...additions]);
  // Where a writer puts them: the apology after the thanks for writing, the rest before a closing offer of help.
  const { sentences: own } = draft;
  const lead = Math.max(
    own.findIndex((sentence) => !FILLER.test(sentence)),
    0,
  );
  const offer = own.findIndex((sentence, index) => index >= lead && OFFER.test(sentence));
  const end = offer < 0 ? own.length : offer;
  let sentences = [
    ...own.slice(0, lead),
    ...apology,
    ...own.slice(lead, end),
    ...additions,
    ...own.slice(end),
  ];
  if (feedback.shorter) sentences = shortened(sentences, added, draft.sentences.join(' ').length);
  const body = capitalized(sentences.join(' '));
  if (!asEmail && !draft.greeting) return body;
  const signOff = draft.signOff ?? signOffFor(signature, feedback.shorter);
  return `${greetingOf(draft.greeting, userText, feedback)}\n\n${body}\n\n${signOff}`;
}
