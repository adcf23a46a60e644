export const STATUSES = [
  { id: 'awaiting_review', label: 'To review' },
  { id: 'sent', label: 'Sent' },
  { id: 'rejected', label: 'Rejected' },
  { id: 'failed', label: 'Failed' },
];

const STATUS_LABELS = {
  drafting: 'Drafting',
  awaiting_review: 'Awaiting review',
  sent: 'Sent',
  rejected: 'Rejected',
  failed: 'Failed',
};

export const statusLabel = (status) => STATUS_LABELS[status] ?? status;

/** `technical_issue` → "Technical issue". */
export function humanize(value) {
  const words = String(value).replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const dayOnly = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

export const fullDate = (iso) => (iso ? dateTime.format(new Date(iso)) : '');

const clock = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
/** "14:05:12": when something happened a moment ago, to the second. */
export const clockTime = (iso) => clock.format(new Date(iso));

/** "14:05" for today, "Mar 3" otherwise: what an inbox list shows. */
export function shortDate(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  return date.toDateString() === new Date().toDateString()
    ? timeOnly.format(date)
    : dayOnly.format(date);
}

/** The sender's name, or their address. */
function senderName(from) {
  const match = /^\s*"?([^"<]*?)"?\s*<[^>]+>\s*$/.exec(from ?? '');
  return (match?.[1] || from || '').trim();
}

/** A line that only greets ("Hi,", "Dear Support Team,") says nothing about the email. */
const GREETING =
  /^(hi|hello|hey|dear|good (morning|afternoon|evening|day)|greetings|to whom it may concern)\b[^,.!?:;]{0,30}[,.!:]?$/i;

/** Cuts `text` to at most `length` characters, at a word boundary when one is near, with "…". */
function truncate(text, length) {
  if (text.length <= length) return text;
  const cut = text.slice(0, length - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > length * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The customer's first line that says something (greetings passed over), trimmed and truncated. */
export function firstLine(text, length = 90) {
  const lines = String(text ?? '')
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  const line = lines.find((candidate) => !GREETING.test(candidate)) ?? lines[0] ?? '';
  return truncate(line, length);
}

/**
 * What names a thread: the customer's subject, else their first line (never the model's summary:
 * the reviewer judges the model, so the title is the customer's words), after the sender's name.
 */
export function threadTitle(thread) {
  const words = thread.email?.subject?.trim() || firstLine(thread.inbound);
  if (!words) return '(empty email)';
  const sender = senderName(thread.email?.from);
  return sender ? `${sender}: ${words}` : words;
}

const DELIVERY_LABELS = {
  queued: 'Queued',
  delivered: 'Delivered',
  failed: 'Delivery failed',
  no_recipient: 'Not sent: no recipient',
  logged: 'Logged (no SMTP)',
};

/** A delivery status in a few words (a status this page does not know yet reads as itself). */
export const deliveryLabel = (status) => DELIVERY_LABELS[status] ?? humanize(status);

export function snippet(text, length = 140) {
  return truncate(
    String(text ?? '')
      .replace(/\s+/g, ' ')
      .trim(),
    length,
  );
}
