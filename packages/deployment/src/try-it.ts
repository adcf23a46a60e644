/** A command to paste into a shell, with the one-line comment printed above it. */
export interface TryItStep {
  comment: string;
  command: string;
}

/** Example inbound email; no single quotes, so it sits inside the single-quoted JSON of the curl line. */
export const SAMPLE_INBOUND =
  'Hello, I was charged twice for invoice INV-1001 this month. Please refund the duplicate payment. Thanks, Dana';
export const SAMPLE_EDITED_DRAFT =
  'Hi Dana, sorry about the double charge on INV-1001. We have refunded the duplicate payment; it reaches your card within 5 business days. Best regards, Support';
export const SAMPLE_INSTRUCTIONS =
  'Keep it short and say that the refund takes up to 5 business days.';

export const HELPDESK_SESSION = 'demo-session';
export const HELPDESK_MESSAGES = {
  billing: 'What is the status of invoice INV-1001?',
  technical: 'Is the API down?',
  escalation:
    'This is the third time I am writing and nothing works. I am furious, get me a human now!',
} as const;

interface CurlOptions {
  /** When the services require a bearer token, the commands send `$API_TOKEN` from the user's shell. */
  withToken: boolean;
}

function curl(method: 'GET' | 'POST', url: string, body: unknown, options: CurlOptions): string {
  const parts = ['curl -s'];
  if (method !== 'GET') parts.push(`-X ${method}`);
  parts.push(url);
  if (options.withToken) parts.push('-H "authorization: Bearer $API_TOKEN"');
  if (body !== undefined)
    parts.push(`-H 'content-type: application/json' -d '${JSON.stringify(body)}'`);
  return parts.join(' ');
}

const READ_THREAD_ID = `node -pe 'JSON.parse(require("fs").readFileSync(0)).thread_id'`;

export const SAMPLE_FROM = 'Dana Example <dana@example.com>';
export const SAMPLE_SUBJECT = 'Charged twice for INV-1001';

/** The second email, which the flow leaves waiting, so the review inbox has something to show. */
export const WAITING_SAMPLE = {
  inbound:
    'Hi, the password reset email never arrives. I tried three times today and checked my spam folder. Can you help? Sam',
  from: 'Sam Example <sam@example.com>',
  subject: 'Password reset email not arriving',
} as const;

export const HELPDESK_A2A_CONTEXT = 'demo-a2a';

/**
 * The whole review flow of email-review; the first step keeps the new thread's id in $THREAD for the
 * others. With `mailDir` (the demo's mail catcher) it ends by showing the delivered reply.
 */
export function emailFlowSteps(
  baseUrl: string,
  options: CurlOptions & { mailDir?: string },
): TryItStep[] {
  const thread = `${baseUrl}/threads/$THREAD`;
  return [
    {
      comment:
        'Create a thread: the workflow classifies the email, drafts a reply and pauses for review',
      command: `THREAD=$(${curl('POST', `${baseUrl}/threads`, { inbound: SAMPLE_INBOUND, from: SAMPLE_FROM, subject: SAMPLE_SUBJECT }, options)} | ${READ_THREAD_ID}); echo "THREAD=$THREAD"`,
    },
    {
      comment: 'Read it (status awaiting_review, with the draft)',
      command: `${curl('GET', thread, undefined, options)}; echo`,
    },
    {
      comment: 'Edit by text: your own words replace the draft',
      command: `${curl('POST', `${thread}/edit`, { draft: SAMPLE_EDITED_DRAFT }, options)}; echo`,
    },
    {
      comment: 'Edit by instructions: the model redrafts following them',
      command: `${curl('POST', `${thread}/edit`, { instructions: SAMPLE_INSTRUCTIONS }, options)}; echo`,
    },
    {
      comment: 'Approve: the thread is sent and its reply queued (delivery.status queued)',
      command: `${curl('POST', `${thread}/approve`, undefined, options)}; echo`,
    },
    ...(options.mailDir
      ? [
          {
            comment:
              'Read the reply as the mail catcher received it (a worker delivers it a moment after the approve)',
            command: `curl -s --retry 10 --retry-delay 1 --retry-all-errors "file://${options.mailDir}/reply-$THREAD@demo.test.eml"`,
          },
        ]
      : []),
    {
      comment:
        'A second email, left for you: it waits in the review inbox (open it in the browser to edit, approve or reject it)',
      command: `${curl('POST', `${baseUrl}/threads`, WAITING_SAMPLE, options)}; echo`,
    },
    {
      comment: 'What waits for review: the list the inbox shows',
      command: `${curl('GET', `"${baseUrl}/threads?status=awaiting_review"`, undefined, options)}; echo`,
    },
  ];
}

/** One message per specialist; all in one session, since every message starts again at the coordinator. */
export function helpdeskSteps(baseUrl: string, options: CurlOptions): TryItStep[] {
  const chat = (message: string) =>
    `${curl('POST', `${baseUrl}/chat`, { session_id: HELPDESK_SESSION, message }, options)}; echo`;
  return [
    { comment: 'An invoice question goes to billing', command: chat(HELPDESK_MESSAGES.billing) },
    { comment: 'A service question goes to technical', command: chat(HELPDESK_MESSAGES.technical) },
    {
      comment: 'An angry request for a human goes to escalation, which opens a ticket',
      command: chat(HELPDESK_MESSAGES.escalation),
    },
    {
      comment: 'Read the conversation: each turn, the specialist who answered, the ticket',
      command: `${curl('GET', `${baseUrl}/sessions/${HELPDESK_SESSION}`, undefined, options)}; echo`,
    },
    {
      comment:
        'The same specialists as an A2A agent (card at /.well-known/agent-card.json): one message over JSON-RPC',
      command: `${curl('POST', `${baseUrl}/a2a`, a2aMessage(HELPDESK_MESSAGES.technical), options)}; echo`,
    },
  ];
}

/** An A2A `message/send` (protocol 0.3) whose context is a helpdesk session of its own. */
function a2aMessage(text: string): unknown {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: {
      message: {
        kind: 'message',
        role: 'user',
        messageId: 'demo-a2a-1',
        contextId: HELPDESK_A2A_CONTEXT,
        parts: [{ kind: 'text', text }],
      },
    },
  };
}
