import { h } from './dom.js';
import { fullDate, humanize, snippet } from './format.js';

const by = (event) => (event.actor === 'model' || event.actor === 'system' ? '' : event.actor);

/** One line per event kind, in the reviewer's words; `who` is the actor when a person acted. */
const DESCRIBE = {
  created: (e) => `Email received (${e.source === 'mime' ? 'raw message' : 'JSON'})`,
  classified: (e) => `Classified as ${humanize(e.category)}, ${humanize(e.urgency)} urgency`,
  drafted: (e) => `The model drafted revision ${e.revision}`,
  edited: (e) => `Draft replaced: revision ${e.revision}`,
  redrafted: (e) => `Redraft asked for: revision ${e.revision}`,
  approved: (e) => `Revision ${e.revision} approved`,
  rejected: () => 'Rejected',
  failed: (e) => `The workflow failed (${e.code})`,
  retried: () => 'Workflow retried',
  recovered: (e) => `Recovered after a crash at revision ${e.revision}`,
  queued: (e) =>
    e.attempts === 0
      ? 'Reply queued for delivery'
      : `Delivery deferred after ${e.attempts} attempt${e.attempts === 1 ? '' : 's'}`,
  delivered: () => 'Reply delivered',
  delivery_failed: () => 'Delivery failed',
  redelivered: () => 'Reply queued again',
  // Statuses the delivery is gaining (issue 28): named here so their events read as the card does.
  no_recipient: () => 'Not sent: no recipient',
  logged: () => 'Reply logged (no SMTP configured)',
};

/** What the event carries beyond its line: the edited text, the instructions, the reason, the error. */
function details(event) {
  if (event.type === 'edited') return `“${snippet(event.text, 160)}”`;
  if (event.type === 'redrafted') return `“${snippet(event.instructions, 160)}”`;
  if (event.type === 'rejected') return event.reason ? `Reason: ${event.reason}` : null;
  if (event.type === 'approved') return `Text SHA-256 ${event.text_sha256.slice(0, 12)}…`;
  if (event.last_error && event.type !== 'delivered') return event.last_error;
  return null;
}

function item(event) {
  const describe = DESCRIBE[event.type] ?? (() => humanize(event.type));
  const who = by(event);
  const extra = details(event);
  return h(
    'li',
    { class: `timeline-item timeline-${event.type}`, 'data-event-type': event.type },
    h('time', { datetime: event.at, class: 'timeline-time', text: fullDate(event.at) }),
    h(
      'div',
      { class: 'timeline-text' },
      h('span', { text: describe(event) }),
      who && h('span', { class: 'timeline-actor', 'data-field': 'actor', text: ` · ${who}` }),
      extra && h('p', { class: 'muted timeline-details', text: extra }),
    ),
  );
}

/** The thread's history as a timeline, oldest first; `events` null when it could not be loaded. */
export function historyTimeline(events) {
  return h(
    'section',
    { class: 'card history', 'aria-labelledby': 'history-title' },
    h('h3', { id: 'history-title', class: 'card-title', text: 'History' }),
    events === null
      ? h('p', { class: 'muted', text: 'The history could not be loaded; refresh to try again.' })
      : h('ol', { class: 'timeline', id: 'history' }, ...events.map(item)),
  );
}
