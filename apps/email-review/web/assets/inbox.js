/* global CSS */
import { byId, h } from './dom.js';
import {
  deliveryLabel,
  humanize,
  shortDate,
  snippet,
  STATUSES,
  statusLabel,
  threadTitle,
} from './format.js';

const countText = (list) => (list ? `${list.items.length}${list.next_cursor ? '+' : ''}` : '…');

const NOUNS = {
  awaiting_review: ['thread awaiting review', 'threads awaiting review'],
  sent: ['sent thread', 'sent threads'],
  rejected: ['rejected thread', 'rejected threads'],
  failed: ['failed thread', 'failed threads'],
};

function summaryText(status, list) {
  if (!list) return 'Loading…';
  const [one, many] = NOUNS[status];
  if (list.items.length === 0) return `No ${many}`;
  return `${countText(list)} ${list.items.length === 1 && !list.next_cursor ? one : many}`;
}

/** Tabs follow the WAI-ARIA tabs pattern: one tab stop, arrows move between tabs and select. */
function moveBetweenTabs(event, onSelect) {
  const order = STATUSES.map((s) => s.id);
  const current = order.indexOf(event.target.closest('[role="tab"]')?.dataset.status);
  if (current < 0) return;
  const next = {
    ArrowRight: (current + 1) % order.length,
    ArrowLeft: (current - 1 + order.length) % order.length,
    Home: 0,
    End: order.length - 1,
  }[event.key];
  if (next === undefined) return;
  event.preventDefault();
  onSelect(order[next]);
  byId(`tab-${order[next]}`).focus();
}

function createTabs(tablist, onSelect) {
  tablist.replaceChildren(
    ...STATUSES.map(({ id, label }) =>
      h(
        'button',
        {
          type: 'button',
          role: 'tab',
          id: `tab-${id}`,
          class: 'tab',
          'data-status': id,
          'aria-controls': 'thread-panel',
          onclick: () => onSelect(id),
        },
        h('span', { class: 'tab-label', text: label }),
        h('span', { class: 'tab-count', 'data-count': id }),
      ),
    ),
  );
  tablist.addEventListener('keydown', (event) => moveBetweenTabs(event, onSelect));
}

/** The tabs are built once and then updated in place, so keyboard focus stays on them. */
export function renderTabs({ active, lists, onSelect }) {
  const tablist = byId('tabs');
  if (tablist.childElementCount === 0) createTabs(tablist, onSelect);
  for (const { id } of STATUSES) {
    const tab = byId(`tab-${id}`);
    tab.setAttribute('aria-selected', String(id === active));
    tab.tabIndex = id === active ? 0 : -1;
    tab.querySelector('.tab-count').textContent = countText(lists[id]);
  }
  byId('thread-panel').setAttribute('aria-labelledby', `tab-${active}`);
}

function threadItem(thread, selected) {
  const urgency = thread.classification?.urgency;
  const category = thread.classification?.category;
  return h(
    'li',
    {},
    h(
      'a',
      {
        href: `#/threads/${encodeURIComponent(thread.thread_id)}`,
        class: 'thread-item',
        'data-thread-id': thread.thread_id,
        'aria-current': selected ? 'true' : undefined,
      },
      h(
        'span',
        { class: 'item-top' },
        h('span', { class: 'item-title', text: threadTitle(thread) }),
        h('time', {
          class: 'item-time',
          datetime: thread.created_at,
          text: shortDate(thread.created_at),
        }),
      ),
      h(
        'span',
        { class: 'item-meta' },
        thread.previous_thread_id &&
          h('span', { class: 'chip', 'data-field': 'follow-up', text: 'Follow-up' }),
        category &&
          h('span', { class: 'chip', 'data-field': 'category', text: humanize(category) }),
        thread.grounding?.status === 'none' &&
          h('span', {
            class: 'chip ungrounded',
            'data-field': 'grounding',
            title: 'The draft cites no help center article',
            text: 'Ungrounded',
          }),
        urgency &&
          h('span', { class: `chip urgency-${urgency}`, text: `${humanize(urgency)} urgency` }),
        thread.status !== 'awaiting_review' &&
          h('span', { class: `chip status-${thread.status}`, text: statusLabel(thread.status) }),
        thread.delivery &&
          h('span', {
            class: `chip delivery-${thread.delivery.status}`,
            'data-field': 'delivery',
            text: deliveryLabel(thread.delivery.status),
          }),
        h('span', { class: 'item-revision', text: `rev ${thread.revision}` }),
      ),
      h('span', { class: 'item-snippet', text: snippet(thread.inbound) }),
    ),
  );
}

export function renderList({ active, lists, selectedId, error }) {
  const list = lists[active];
  byId('list-summary').textContent = summaryText(active, list);
  const errorBox = byId('list-error');
  errorBox.hidden = !error;
  errorBox.textContent = error ? `The list could not be loaded: ${error}` : '';
  const items = list?.items ?? [];
  const container = byId('thread-list');
  const focused = container.contains(document.activeElement)
    ? document.activeElement.dataset.threadId
    : undefined;
  container.replaceChildren(
    ...items.map((thread) => threadItem(thread, thread.thread_id === selectedId)),
  );
  // A refresh must not throw a keyboard user's focus back to the top of the page.
  if (focused) container.querySelector(`[data-thread-id="${CSS.escape(focused)}"]`)?.focus();
  byId('load-more').hidden = !list?.next_cursor;
}
