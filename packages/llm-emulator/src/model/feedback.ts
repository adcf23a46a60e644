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
const MENTION =
  /\b(?:mention|include|add|reference|talk about|say|state|tell (?:them|the customer|her|him)|refer to|note)\s+(?:that\s+)?(.+?)(?=\s+and\s+(?:make|mention|include|add|be|keep|say|state|use)\b|[.;!?\n]|,\s|$)/gi;

/**
 * Text holding feedback: whatever follows a "feedback:"-like marker in any message, plus the latest user
 * message when it follows an earlier assistant draft (a revision request in a chat).
 */
export function feedbackText(task: ModelTask, latestUserIndex: number): string {
  const parts: string[] = [];
  const texts = [task.system, ...task.turns.map((t) => (t.role === 'tool' ? '' : t.text))];
  for (const text of texts) {
    const m = MARKER.exec(text);
    if (m) parts.push(text.slice(m.index + m[0].length).split(/\n\s*\n/)[0] ?? '');
  }
  if (isRevisionRequest(task, latestUserIndex)) parts.push((task.turns[latestUserIndex] as { text: string }).text);
  return parts.join('\n');
}

function asksForChanges(feedback: Feedback): boolean {
  return feedback.shorter || feedback.longer || feedback.formal || feedback.apologize || feedback.mentions.length > 0;
}

/** Whether the latest user message asks to revise an earlier draft ("make it shorter") rather than asking something new. */
export function isRevisionRequest(task: ModelTask, latestUserIndex: number): boolean {
  const latest = task.turns[latestUserIndex];
  if (latest?.role !== 'user') return false;
  const earlier = task.turns.slice(0, latestUserIndex).some((t) => (t.role === 'assistant' || t.role === 'user') && t.text);
  return earlier && asksForChanges(parseFeedback(latest.text));
}

export function parseFeedback(text: string): Feedback {
  const mentions: string[] = [];
  for (const m of text.matchAll(MENTION)) {
    const phrase = (m[1] ?? '').trim().replace(/^(it|this)\s+/i, '');
    if (phrase && phrase.length <= 80 && !/^(it|this|that)$/i.test(phrase)) mentions.push(phrase);
  }
  return {
    shorter: /\b(shorter|shorten|concise|brief|briefer|too long|less wordy|trim it|cut it down)\b/i.test(text),
    longer: /\b(longer|more detail|more details|elaborate|expand)\b/i.test(text),
    formal: /\bformal\b/i.test(text),
    apologize: /\b(apologi[sz]e|apology|say sorry)\b/i.test(text),
    mentions,
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
