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

/** "14:05" for today, "Mar 3" otherwise: what an inbox list shows. */
export function shortDate(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  return date.toDateString() === new Date().toDateString()
    ? timeOnly.format(date)
    : dayOnly.format(date);
}

/** The line that names a thread: its summary, else the first line of the email. */
/** The sender's name, or their address. */
function senderName(from) {
  const match = /^\s*"?([^"<]*?)"?\s*<[^>]+>\s*$/.exec(from ?? '');
  return (match?.[1] || from || '').trim();
}

/** From and subject when the email had a subject; otherwise the summary, or the first line. */
export function threadTitle(thread) {
  const subject = thread.email?.subject?.trim();
  if (subject) {
    const sender = senderName(thread.email.from);
    return sender ? `${sender}: ${subject}` : subject;
  }
  const summary = thread.classification?.summary?.trim();
  if (summary) return summary;
  const firstLine =
    String(thread.inbound ?? '')
      .trim()
      .split('\n')[0] ?? '';
  return firstLine.length > 90 ? `${firstLine.slice(0, 89)}…` : firstLine || '(empty email)';
}

export function snippet(text, length = 140) {
  const flat = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}
