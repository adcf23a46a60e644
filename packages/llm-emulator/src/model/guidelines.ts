import type { Decision, ModelTask } from './task.js';

/**
 * Guideline derivation (email-review): the system prompt asks to "Derive reviewer guidelines"; the
 * user turn holds the draft and the reviewer's approved text or instructions, each between <<< and
 * >>>. The emulator learns only what an edit plainly teaches (a changed greeting, an added label
 * line or sign-off, the instructions' first sentence), never from text marked as the customer's.
 */
export function isGuidelineDerivation(task: ModelTask): boolean {
  return task.output.kind === 'json' && /derive reviewer guidelines/i.test(task.system);
}

interface Derived {
  rule: string;
  scope: 'sender' | 'domain' | 'category' | 'global';
}

function section(text: string, label: string): string | undefined {
  const start = text.indexOf(`${label}:\n<<<\n`);
  if (start < 0) return undefined;
  const from = start + label.length + 6;
  const end = text.indexOf('\n>>>', from);
  return end < 0 ? undefined : text.slice(from, end);
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

const GREETING = /^(hi|hello|hey|dear|good (?:morning|afternoon|evening))\b/i;
const SIGN_OFF =
  /^(best|kind|warm)?\s*(regards|wishes)|^(thanks|thank you|cheers|sincerely)\b[^.?!]*,?$/i;
const LABELLED = /^([A-Za-z][A-Za-z ]{1,40}):\s*\S/;

function fromEdit(draft: string, approved: string): Derived[] {
  const drafted = lines(draft);
  const sent = lines(approved);
  const derived: Derived[] = [];
  const [first] = sent;
  const greeting = first && GREETING.exec(first);
  if (greeting && first !== drafted[0]) {
    const word = greeting[1]!.replace(/^./, (c) => c.toUpperCase());
    derived.push({ rule: `Greet the customer as '${word} <name>'`, scope: 'domain' });
  }
  const before = new Set(drafted.map((line) => line.toLowerCase()));
  for (const line of sent.slice(1)) {
    if (before.has(line.toLowerCase()) || line.includes('[customer text]')) continue;
    const labelled = LABELLED.exec(line);
    if (labelled) {
      derived.push({ rule: `Include the ${labelled[1]!.trim().toLowerCase()}`, scope: 'domain' });
    } else if (SIGN_OFF.test(line)) {
      derived.push({ rule: `Sign off with '${line}'`, scope: 'domain' });
    }
  }
  return derived;
}

function fromInstructions(instructions: string): Derived[] {
  const first = instructions
    .trim()
    .split(/(?<=[.!?])\s/)[0]
    ?.trim();
  return first ? [{ rule: first.replace(/[.!?]$/, '').slice(0, 200), scope: 'sender' }] : [];
}

export function deriveGuidelines(task: ModelTask): Decision {
  const request = [...task.turns].reverse().find((turn) => turn.role === 'user');
  const text = request?.role === 'user' ? request.text : '';
  const draft = section(text, 'Model draft') ?? '';
  const approved = section(text, "Reviewer's approved text");
  const instructions = section(text, "Reviewer's instructions");
  const guidelines =
    approved !== undefined
      ? fromEdit(draft, approved)
      : instructions !== undefined
        ? fromInstructions(instructions)
        : [];
  return { kind: 'text', text: JSON.stringify({ guidelines }) };
}
