import { asksForChanges, hasFeedbackMarker, parseFeedback } from './feedback.js';
import type { ModelTask } from './task.js';

const QUESTION =
  /^(?:(?:and|so|also|then|ok(?:ay)?|thanks)[,.!]?\s+)*(?:what|which|who|whose|when|where|why|how|is|are|was|were|does|do|did|has|have)\b/i;
const ABOUT_THE_DRAFT = /\b(?:it|this|the (?:draft|reply|response|answer|letter|wording))\b/i;
// Ids such as INV-1002 or TCK-9F2: a new one names a new subject, not a change to the draft.
const ID = /\b[a-z]+[-_]?\d[\w-]*/gi;

function previousUserIndex(task: ModelTask, index: number): number {
  for (let i = index - 1; i >= 0; i--) {
    const turn = task.turns[i];
    if (turn?.role === 'user' && turn.text.trim()) return i;
  }
  return -1;
}

/** Whether the turn before `index` (tool results aside) is a text reply: a draft the message can ask to change. */
function followsDraft(task: ModelTask, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const turn = task.turns[i];
    if (turn?.role === 'tool') continue;
    return turn?.role === 'assistant' && turn.text.trim() !== '';
  }
  return false;
}

function earlierText(task: ModelTask, index: number): string {
  return task.turns
    .slice(0, index)
    .map((t) => (t.role === 'tool' ? JSON.stringify(t.result ?? null) : t.text))
    .join('\n')
    .toLowerCase();
}

/**
 * Whether a message asks about something of its own, e.g. "What about invoice INV-1002?" or "Is the email
 * service down? Please state the message.": feedback words in it ("include", "state", "more details") are
 * then part of a new question, not instructions for the previous reply.
 */
function asksSomethingNew(task: ModelTask, index: number, text: string): boolean {
  const sentences = text.split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim());
  if (sentences.some((s) => s.endsWith('?') && QUESTION.test(s) && !ABOUT_THE_DRAFT.test(s)))
    return true;
  const earlier = earlierText(task, index);
  return (text.match(ID) ?? []).some((id) => !earlier.includes(id.toLowerCase()));
}

/**
 * Whether the user message at `index` asks to revise an earlier reply ("make it shorter"): explicit
 * reviewer instructions, or a request for changes right after a reply that asks nothing of its own.
 * Only the message and the turn before it count, so a long history cannot turn a question into one.
 */
export function isRevisionRequest(task: ModelTask, index: number): boolean {
  const message = task.turns[index];
  if (message?.role !== 'user' || previousUserIndex(task, index) < 0) return false;
  if (hasFeedbackMarker(message.text)) return true;
  return (
    followsDraft(task, index) &&
    asksForChanges(parseFeedback(message.text)) &&
    !asksSomethingNew(task, index, message.text)
  );
}

/**
 * The user message the answer is about: the latest one, or, when it asks for a revision, the request the
 * revised reply answered (followed back through a chain of revisions), never simply the first message.
 */
export function requestIndex(task: ModelTask, latest: number): number {
  let index = latest;
  while (isRevisionRequest(task, index)) {
    const previous = previousUserIndex(task, index);
    if (previous < 0) break;
    index = previous;
  }
  return index;
}
