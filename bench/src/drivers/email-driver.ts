import type { StepTimer } from '../load/step-timer.js';

/** One review lifecycle: create (classify + draft, pause before send) → get → approve (send). */
export interface EmailDriver {
  lifecycle(inbound: string, timer: StepTimer): Promise<void>;
  close(): void;
}

export const EMAIL_STEPS = ['create', 'get', 'approve'] as const;

/**
 * Inbound emails the lifecycles cycle through; `tag` makes every text unique so the emulator's
 * request log can tell which lifecycle a model call belonged to.
 */
const INBOUND = [
  'Hello, I was charged twice for my subscription this month (invoice INV-1001). Could you refund the extra payment?',
  'Your API has been returning 502 errors since this morning and our checkout is down. Please fix this urgently.',
  'Thanks a lot for the quick help last week, the new dashboard is great. Do you offer an annual plan?',
  'I want to upgrade to the enterprise plan for 40 seats. Can you send me a quote?',
];

export function inboundEmail(index: number, tag: string): string {
  return `${INBOUND[index % INBOUND.length] ?? ''}\n\nRef: ${tag}`;
}
