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
  // After `no_recipient`, redeliver is how the reviewer gave the reply its recipient.
  redelivered: (e, before) =>
    before?.type === 'no_recipient'
      ? 'Recipient added: reply queued for delivery'
      : 'Reply queued again',
  no_recipient: () => 'Not sent: no recipient',
  logged: () => 'Reply logged (no SMTP configured), not emailed',
};

/** The events that record where a reply's delivery stands. */
const DELIVERY_EVENTS = new Set([
  'queued',
  'delivered',
  'logged',
  'no_recipient',
  'delivery_failed',
  'redelivered',
]);

/** What the event carries beyond its line: the edited text, the instructions, the reason, the error. */
function details(event) {
  if (event.type === 'edited') return `“${snippet(event.text, 160)}”`;
  if (event.type === 'redrafted') return `“${snippet(event.instructions, 160)}”`;
  if (event.type === 'rejected') return event.reason ? `Reason: ${event.reason}` : null;
  if (event.type === 'approved') return `Text SHA-256 ${event.text_sha256.slice(0, 12)}…`;
  if (event.type === 'no_recipient') return 'The email had no sender address to reply to.';
  if (event.last_error && event.type !== 'delivered') return event.last_error;
  return null;
}

/** `before`: the delivery event that preceded this one, if any. */
function item(event, before) {
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
      h('span', { text: describe(event, before) }),
      who && h('span', { class: 'timeline-actor', 'data-field': 'actor', text: ` · ${who}` }),
      extra && h('p', { class: 'muted timeline-details', text: extra }),
    ),
  );
}

/** Calls `render(event, before)` with the delivery event before each event. */
function withDeliveryBefore(render) {
  let before;
  return (event) => {
    const rendered = render(event, before);
    if (DELIVERY_EVENTS.has(event.type)) before = event;
    return rendered;
  };
}

/** The thread's history as a timeline, oldest first; `events` null when it could not be loaded. */
export function historyTimeline(events) {
  return h(
    'section',
    { class: 'card history', 'aria-labelledby': 'history-title' },
    h('h3', { id: 'history-title', class: 'card-title', text: 'History' }),
    events === null
      ? h('p', { class: 'muted', text: 'The history could not be loaded; refresh to try again.' })
      : h('ol', { class: 'timeline', id: 'history' }, ...events.map(withDeliveryBefore(item))),
  );
}
