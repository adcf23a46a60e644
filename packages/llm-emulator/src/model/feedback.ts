import type { ModelTask } from './task.js';

/** Reviewer instructions recognised in a request, e.g. "make it shorter", "mention the refund". */
export interface Feedback {
  shorter: boolean;
  longer: boolean;
  formal: boolean;
  apologize: boolean;
  mentions: string[];
}

// A colon is required so that prose such as "follow the reviewer feedback if any" is not read as feedback.
const MARKER =
  /\b(?:(?:reviewer(?:'s)?|human|editor(?:'s)?)\s+(?:instructions?|notes?|comments?|feedback|requests?)|feedback|revision request|requested changes?|change request)\s*[:\u2013-]\s*/i;
const APOLOGY = /\b(?:apologi[sz]e|apology|say sorry|(?:we|i) (?:are|am) sorry)\b/i;
// "short" alone is too common a word; it counts as an instruction in phrases such as "keep it short".
const SHORTER =
  /\b(?:shorter|shorten|concise|brief|briefer|too long|less wordy|trim it|cut it down)\b|\b(?:keep|make|be)\s+(?:it\s+|this\s+|the\s+\w+\s+)?short\b|^\s*short\b|\bshort\s+(?:and|version|reply|draft|answer|email)\b/im;
const MENTION =
  /\b(?:mention|include|add|reference|talk about|say|state|tell (?:them|the customer|her|him)|refer to|note)\s+(?:that\s+)?(.+?)(?=\s+and\s+(?:make|mention|include|add|be|keep|say|state|use)\b|[.;!?\n]|,\s|$)/gi;

/**
 * Text holding feedback: whatever follows a "feedback:"-like marker in the system prompt or in the user's
 * messages from the request on, plus the latest message itself when it is a revision request.
 */
export function feedbackText(
  task: ModelTask,
  request: number,
  latest: number,
  revision: boolean,
): string {
  const parts: string[] = [];
  const texts = [
    task.system,
    ...task.turns
      .slice(Math.max(request, 0), latest + 1)
      .map((t) => (t.role === 'user' ? t.text : '')),
  ];
  for (const text of texts) {
    const m = MARKER.exec(text);
    if (m) parts.push(text.slice(m.index + m[0].length).split(/\n\s*\n/)[0] ?? '');
  }
  const message = task.turns[latest];
  if (revision && message?.role === 'user') parts.push(message.text);
  return parts.join('\n');
}

/** Whether the text carries explicit instructions such as "Reviewer feedback: …". */
export function hasFeedbackMarker(text: string): boolean {
  return MARKER.test(text);
}

export function asksForChanges(feedback: Feedback): boolean {
  return (
    feedback.shorter ||
    feedback.longer ||
    feedback.formal ||
    feedback.apologize ||
    feedback.mentions.length > 0
  );
}

export function parseFeedback(text: string): Feedback {
  const mentions: string[] = [];
  for (const m of text.matchAll(MENTION)) {
    const phrase = (m[1] ?? '').trim().replace(/^(it|this)\s+/i, '');
    const known = mentions.some((seen) => seen.toLowerCase() === phrase.toLowerCase());
    if (phrase && phrase.length <= 80 && !/^(it|this|that)$/i.test(phrase) && !known)
      mentions.push(phrase);
  }
  // "Say that we are sorry" asks for the apology, not for a sentence about it.
  const apologies = mentions.filter((mention) => APOLOGY.test(mention));
  return {
    shorter: SHORTER.test(text),
    longer: /\b(longer|more detail|more details|elaborate|expand)\b/i.test(text),
    formal: /\bformal\b/i.test(text),
    apologize: APOLOGY.test(text),
    mentions: mentions.filter((mention) => !apologies.includes(mention)),
  };
}

/** The user's text with any feedback paragraph removed, so feedback words don't sway topic detection. */
export function withoutFeedback(text: string): string {
  const m = MARKER.exec(text);
  if (!m) return text;
  const rest = text.slice(m.index);
  const end = rest.search(/\n\s*\n/);
  return (text.slice(0, m.index) + (end >= 0 ? rest.slice(end) : '')).trim();
}
