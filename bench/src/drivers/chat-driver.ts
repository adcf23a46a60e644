import type { StepTimer } from '../load/step-timer.js';

/** One help-desk conversation: a fresh session and its messages, one after another. */
export interface ChatDriver {
  chat(sessionKey: string, messages: string[], timer: StepTimer): Promise<void>;
  close(): void;
}

/** The three routes (billing, technical, escalation) and two more. */
const SCRIPT = [
  'What is the amount due on invoice INV-1001, and when is it due?',
  'Is the API down? Our requests keep timing out.',
  'This is unacceptable, I am fed up. I want to talk to a human manager now.',
  'Has invoice INV-1002 been paid yet?',
  'Is the login service working? I get an error when I log in.',
];

export const MESSAGES_PER_CHAT = SCRIPT.length;

/** The `turns` messages of one chat, each tagged so the emulator log can attribute model calls. */
export function chatMessages(chatTag: string, turns = SCRIPT.length): string[] {
  return Array.from(
    { length: turns },
    (_, i) => `${SCRIPT[i % SCRIPT.length] ?? ''} (ref ${chatTag}-t${i + 1})`,
  );
}
