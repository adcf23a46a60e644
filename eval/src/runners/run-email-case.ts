import { setTimeout as delay } from 'node:timers/promises';
import type { EmailCase } from '../datasets/schema.js';

/** What email-review made of one email, as its API shows it. */
export interface EmailOutcome {
  id: string;
  status: string;
  category: string | null;
  urgency: string | null;
  draft: string | null;
  /** The thread's `grounding` field when the service exposes one (the passages the draft drew on). */
  grounding: unknown;
  error: string | null;
  latency_ms: number;
}

interface Thread {
  thread_id: string;
  status: string;
  classification?: { category?: string; urgency?: string } | null;
  draft?: string | null;
  grounding?: unknown;
  error?: { code?: string; message?: string } | null;
}

const DRAFT_DEADLINE_MS = 60_000;

/** POSTs the email as a user's client would (JSON or raw MIME) and waits for its draft. */
export async function runEmailCase(baseUrl: string, testCase: EmailCase): Promise<EmailOutcome> {
  const started = performance.now();
  const request = testCase.raw_mime
    ? { headers: { 'content-type': 'message/rfc822' }, body: testCase.raw_mime }
    : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(testCase.email) };
  const res = await fetch(`${baseUrl}/threads`, { method: 'POST', ...request });
  const body = (await res.json()) as Thread & { code?: string };
  // A draft that failed answers problem details (502/503 with the thread's id), not the thread.
  if (!res.ok) {
    return failed(
      testCase.id,
      started,
      `POST /threads answered ${res.status} ${body.code ?? ''}`.trim(),
    );
  }
  let thread: Thread = body;
  const deadline = Date.now() + DRAFT_DEADLINE_MS;
  while (thread.status === 'drafting' && Date.now() < deadline) {
    await delay(100);
    thread = (await (await fetch(`${baseUrl}/threads/${thread.thread_id}`)).json()) as Thread;
  }
  return {
    id: testCase.id,
    status: thread.status,
    category: thread.classification?.category ?? null,
    urgency: thread.classification?.urgency ?? null,
    draft: thread.draft ?? null,
    grounding: thread.grounding,
    error: thread.error
      ? `${thread.error.code ?? 'error'}`
      : thread.status === 'drafting'
        ? 'draft_timeout'
        : null,
    latency_ms: Math.round(performance.now() - started),
  };
}

function failed(id: string, started: number, error: string): EmailOutcome {
  return {
    id,
    status: 'failed',
    category: null,
    urgency: null,
    draft: null,
    grounding: undefined,
    error,
    latency_ms: Math.round(performance.now() - started),
  };
}
