import { emailPartsOf } from './email-parts.js';
import type { Feedback } from './feedback.js';
import { isCatchAll, topicOf, type Topic } from './intents.js';
import { asSentence } from './sentences.js';
import { indexText } from './text-index.js';

const TOPIC_SENTENCE: Record<Topic, string> = {
  billing:
    'I have looked into the charge on your account and we will correct anything that is wrong.',
  technical: 'Our engineers are investigating the problem you reported and will keep you posted.',
  escalation:
    'I am sorry for the frustration this has caused; a senior member of our team will follow up with you personally.',
  sales:
    'Thank you for your interest; a colleague from our sales team will get back to you with the details of our plans and pricing.',
  spam: 'This message looks like unsolicited advertising, so we will not follow up on it.',
  general: 'We will look into this and get back to you shortly.',
};

const SHORT_TOPIC_SENTENCE: Record<Topic, string> = {
  billing: 'We are checking the charge.',
  technical: 'Our engineers are on it.',
  escalation: 'A senior colleague will follow up.',
  sales: 'Our sales team will get back to you.',
  spam: 'We do not respond to unsolicited offers.',
  general: 'We are on it.',
};

const REFERENCE = /\b(invoice|order|ticket|case|reference|account)\s*(number|no\.?|id|#)/i;

/**
 * A sentence per "mention X" / "say that Y" instruction; a reference to "the invoice number" quotes the number.
 * `noted` says whether the text they join already has a "Please note that" sentence: the next ones start "Also,".
 */
export function mentionSentences(mentions: string[], userText: string, noted = false): string[] {
  let notes = noted ? 1 : 0;
  return mentions.map((m) => {
    if (REFERENCE.test(m)) {
      const id = /\b[A-Za-z]{2,6}-\d{2,}\b|#\d{3,}\b/.exec(userText)?.[0];
      if (id) return `Regarding ${m}: it is ${id}.`;
    }
    if (m.split(/\s+/).length <= 3)
      return `Regarding ${m}: we have noted it and will take care of it.`;
    return asSentence(notes++ === 0 ? `Please note that ${m}` : `Also, ${m}`);
  });
}

export function greetingFor(name: string | undefined, formal: boolean): string {
  return formal ? `Dear ${name ?? 'Customer'},` : `Hi ${name ?? 'there'},`;
}

export const APOLOGY = 'We sincerely apologize for the inconvenience.';
export const MORE_DETAIL =
  'We will share every detail of what we find, step by step, as soon as we have it.';

/**
 * The signature a system prompt asks replies to end with: the lines after "…signature…:" up to a blank line
 * (support-profile's draft prompt: "End the reply with this signature, exactly as written:").
 */
export function requestedSignature(system: string): string | undefined {
  const lines = /\bsignature\b[^\n:]*:[ \t]*\n((?:[ \t]*\S[^\n]*(?:\n|$))+)/i.exec(system)?.[1];
  return lines?.trim() || undefined;
}

/** How an emailed reply ends: the team's own signature, else a generic one. */
export function signOffFor(signature: string | undefined, short: boolean): string {
  return signature ?? (short ? 'Best,\nSupport Team' : 'Best regards,\nSupport Team');
}

/** What a reply answers: the user's text and the reviewer's feedback; as an email, with the team's signature. */
export interface ReplyRequest {
  userText: string;
  feedback: Feedback;
  asEmail: boolean;
  signature?: string | undefined;
}

/**
 * A polite reply that quotes the user's text and visibly applies the reviewer's feedback. `grounded`:
 * the sentence that answers from the help center passages in the prompt, instead of the topic's.
 */
export function composeReply(request: ReplyRequest, grounded?: string): string {
  const { userText, feedback, asEmail, signature } = request;
  const email = emailPartsOf(userText);
  const topic = topicOf(indexText(userText));
  const about = email.subject ? ` about "${email.subject}"` : '';
  const greeting = greetingFor(email.senderName, feedback.formal);
  const apology = feedback.apologize ? [APOLOGY] : [];

  if (feedback.shorter) {
    const sentences = [
      `Thanks for your message${about}.`,
      ...apology,
      grounded ?? SHORT_TOPIC_SENTENCE[topic],
      ...mentionSentences(feedback.mentions, userText),
    ];
    return asEmail
      ? `${greeting}\n\n${sentences.join(' ')}\n\n${signOffFor(signature, true)}`
      : sentences.join(' ');
  }
  const sentences = [
    `Thank you for your ${asEmail ? 'email' : 'message'}${about}. You wrote: "${email.firstSentence}"`,
    ...apology,
    grounded ?? TOPIC_SENTENCE[topic],
    ...mentionSentences(feedback.mentions, userText),
    ...(feedback.longer ? [MORE_DETAIL] : []),
    'Please let us know if there is anything else we can help with.',
  ];
  return asEmail
    ? `${greeting}\n\n${sentences.join(' ')}\n\n${signOffFor(signature, false)}`
    : sentences.join(' ');
}

/** A category as words: `technical_support` → "technical support"; catch-alls (`other`, `general`) name none. */
function categoryWords(category: string): string | undefined {
  const words = category
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return isCatchAll(words) ? undefined : words;
}

/**
 * A one-line summary that paraphrases the user's text. Beside a category the same answer chose, it names that
 * category (never another one); otherwise the topic the text is about.
 */
export function composeSummary(userText: string, category?: string): string {
  const email = emailPartsOf(userText);
  const topic = topicOf(indexText(userText));
  const about =
    category !== undefined ? categoryWords(category) : topic === 'general' ? undefined : topic;
  if (about === 'spam') return `Unsolicited advertising: "${email.firstSentence}"`;
  const lead = about
    ? `The customer writes about ${/^[aeiou]/.test(about) ? 'an' : 'a'} ${about} matter`
    : 'The customer writes';
  return `${lead}: "${email.firstSentence}"`;
}
