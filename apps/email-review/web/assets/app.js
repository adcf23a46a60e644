import { api, onTokenNeeded } from './api.js';
import { byId, h } from './dom.js';
import { humanize, STATUSES } from './format.js';
import { renderList, renderTabs } from './inbox.js';
import { historyTimeline } from './history-view.js';
import { deliveryText, threadView } from './thread-view.js';
import { confirmChangedDraft, draftChangeAnnouncement } from './draft-change.js';
import { watchDelivery } from './delivery-watch.js';
import { followChanges } from './live-changes.js';
import { askForToken } from './token-dialog.js';
import { forgetToken, readToken } from './token.js';
import { mountLearningPanel } from './guidelines-view.js';

const state = {
  tab: 'awaiting_review',
  lists: {},
  listError: null,
  selectedId: null,
  thread: null,
  /** The open thread's history events (oldest first), or null until loaded. */
  history: null,
  loadError: null,
  busy: null,
  notice: null,
  draftValue: null,
  instructionsValue: '',
  /** The decision whose inline confirmation is open: 'approve', 'reject' or null. */
  confirming: null,
  /** What the reviewer typed in the confirmation (null: not touched, the sender's address). */
  recipientValue: null,
  reasonValue: '',
  /** The reject reason chosen (one of the service's list), '' for none. */
  rejectReasonValue: '',
  /** The address typed for a reply that had no recipient. */
  redeliverToValue: '',
  /** The last draft this page showed: { thread_id, revision, draft }. */
  shownDraft: null,
  /** A change of the shown draft by someone else, until dismissed (see draft-change.js). */
  draftChange: null,
  /** A thread this page asked to (re)draft whose draft is still to come: that draft is its own. */
  ownRunOf: null,
  /** The list filters: a category of GET /labels, and `grounding: 'none'` for flagged drafts. */
  filters: { category: '', grounding: '' },
};

const BUSY = {
  save: 'Saving the draft…',
  redraft: 'The model is redrafting the reply…',
  approve: 'Sending the reply…',
  reject: 'Rejecting the thread…',
  retry: 'The model is resuming the workflow…',
  redeliver: 'Queueing the reply…',
};
const VERBS = {
  save: 'save the draft',
  redraft: 'redraft the reply',
  approve: 'approve and send',
  reject: 'reject the thread',
  retry: 'retry the workflow',
  redeliver: 'queue the reply',
};
const DONE = {
  save: (t) => `Draft saved as revision ${t.revision}.`,
  redraft: (t) => `New draft ready: revision ${t.revision}.`,
  approve: (t) => `Approved. ${deliveryOutcome(t.delivery)}`,
  redeliver: (t) => deliveryOutcome(t.delivery),
  reject: () => 'Rejected: no reply will be sent.',
  retry: (t) =>
    t.status === 'awaiting_review' ? 'The draft is ready for review.' : 'The workflow ran again.',
};

/** What became of the reply once approve or redeliver answered. */
function deliveryOutcome(delivery) {
  if (delivery?.status === 'no_recipient')
    return 'Nothing was sent: there is no recipient. Enter an address under “Recipient” to send the reply.';
  if (delivery?.status === 'logged')
    return 'The reply was written to the service log (no SMTP configured), not emailed.';
  return delivery?.to
    ? `The reply to ${delivery.to} is queued for delivery.`
    : 'The reply is queued for delivery.';
}

function announce(text) {
  byId('announcer').textContent = text;
}

function explain(kind, error, shown) {
  const verb = VERBS[kind];
  if (error.code === 'revision_mismatch' && kind === 'save')
    return `Could not save: the draft was changed by someone else while you were editing revision ${shown.revision} (it is now at revision ${error.problem.revision ?? 'a newer one'}). Your text is still in the editor: save again to put it in place of theirs, or discard it to read theirs.`;
  if (error.code === 'revision_mismatch')
    return `Could not ${verb}: the draft was changed by someone else while you were reading revision ${shown.revision} (it is now at revision ${error.problem.revision ?? 'a newer one'}). Nothing was done. The new draft is shown below: read it before you act.`;
  if (error.status === 409)
    return `Could not ${verb}: someone else acted on this thread first (${error.message}). It is now shown as it really is.`;
  if (error.status === 502)
    return `Could not ${verb}: the language model did not answer (${error.message}). Nothing was lost; try again later.`;
  if (error.status === 404) return `Could not ${verb}: this thread no longer exists.`;
  if (error.code === 'recipient_required')
    return `Could not ${verb}: there is no address to send the reply to. Enter the customer's address under “Send to” and confirm again.`;
  return `Could not ${verb}: ${error.message}`;
}

function selectTab(tab) {
  state.tab = tab;
  renderInbox();
}

function renderInbox() {
  renderTabs({ active: state.tab, lists: state.lists, onSelect: selectTab });
  renderList({
    active: state.tab,
    lists: state.lists,
    selectedId: state.selectedId,
    error: state.listError,
  });
  byId('forget-token').hidden = readToken() === '';
}

// Edits and decisions name the revision on screen, so a stale page cannot act on a newer draft.
const handlers = {
  save: (draft) => act('save', (t) => api.saveDraft(t.thread_id, t.revision, draft)),
  redraft: (instructions) =>
    act('redraft', (t) => api.redraft(t.thread_id, t.revision, instructions)),
  startDecision: async (kind) => {
    if (state.busy) return;
    if (kind === 'approve' && !(await approveChangedDraft())) return;
    state.confirming = kind;
    const recipient = state.recipientValue ?? state.thread?.email?.from ?? '';
    renderDetail({ focus: kind === 'approve' && !recipient ? 'recipient' : `confirm-${kind}` });
  },
  cancelDecision: () => {
    const kind = state.confirming;
    if (!kind || state.busy) return;
    state.confirming = null;
    renderDetail({ focus: kind });
  },
  // The sender's own address is the service's default: only another one is sent as `to`.
  approve: (to) =>
    act('approve', (t) =>
      api.approve(t.thread_id, t.revision, to && to !== t.email?.from ? to : undefined),
    ),
  reject: (reason, note) => act('reject', (t) => api.reject(t.thread_id, t.revision, reason, note)),
  retry: () => act('retry', (t) => api.retry(t.thread_id)),
  redeliver: (to) => act('redeliver', (t) => api.redeliver(t.thread_id, to)),
  recipientInput: (value) => {
    state.recipientValue = value;
  },
  reasonInput: (value) => {
    state.reasonValue = value;
  },
  rejectReasonInput: (value) => {
    state.rejectReasonValue = value;
  },
  redeliverToInput: (value) => {
    state.redeliverToValue = value;
  },
  back: () => {
    window.location.hash = '';
  },
  draftInput: (value) => {
    state.draftValue = value;
  },
  instructionsInput: (value) => {
    state.instructionsValue = value;
  },
  toggleEarlier: () => {
    state.draftChange.showEarlier = !state.draftChange.showEarlier;
    renderDetail({ focus: 'draft-change-earlier' });
  },
  dismissDraftChange: () => {
    state.draftChange = null;
    renderDetail({ focus: 'draft', fallback: 'thread-title' });
  },
};

/** The draft change standing over the open thread, if any. */
const standingChange = () =>
  state.draftChange?.thread_id === state.thread?.thread_id ? state.draftChange : null;

/**
 * While a change of the draft stands, Approve first asks whether to approve the new text. True to
 * go on; false when refused, or when the draft changed again while the question was open.
 */
async function approveChangedDraft() {
  const change = standingChange();
  if (!change) return true;
  const revision = state.thread.revision;
  const approved = await confirmChangedDraft(change, state.history);
  return approved && !state.busy && state.thread?.revision === revision;
}

/** Renders the open thread; `focus`, else `fallback` (ids), gets the focus when it is there and enabled. */
function renderDetail({ focus, fallback } = {}) {
  const detail = byId('detail');
  document.body.classList.toggle('show-detail', state.selectedId !== null);
  if (state.selectedId === null) {
    detail.replaceChildren(
      h(
        'div',
        { class: 'empty-detail' },
        h('p', { text: 'Select a thread to read the email and review its draft.' }),
      ),
    );
    return;
  }
  if (!state.thread) {
    detail.replaceChildren(
      h(
        'div',
        { class: 'empty-detail' },
        state.loadError
          ? h('p', { role: 'alert', class: 'notice notice-error', text: state.loadError })
          : h('p', { text: 'Loading the thread…' }),
        h('button', {
          type: 'button',
          class: 'button ghost back',
          onclick: handlers.back,
          text: '← Inbox',
        }),
      ),
    );
    return;
  }
  detail.replaceChildren(threadView(state.thread, state, handlers));
  detail.querySelector('article.thread')?.append(historyTimeline(state.history));
  const target = [focus, fallback]
    .map((id) => id && document.getElementById(id))
    .find((element) => element && !element.disabled);
  target?.focus();
}

/** A list again, as far as the reviewer had loaded it (Load more): page after page up to `loaded`. */
async function fetchList(status, loaded) {
  const list = await api.listThreads(status, undefined, state.filters);
  while (list.next_cursor && list.items.length < loaded) {
    const page = await api.listThreads(status, list.next_cursor, state.filters);
    list.items.push(...page.items);
    list.next_cursor = page.next_cursor;
  }
  return list;
}

async function refreshLists() {
  const results = await Promise.allSettled(
    STATUSES.map(({ id }) => fetchList(id, state.lists[id]?.items.length ?? 0)),
  );
  // The lists loaded, so the token (if one is needed) is good: follow the changes from now on.
  if (results.some((result) => result.status === 'fulfilled')) live.start();
  results.forEach((result, index) => {
    if (result.status === 'fulfilled') state.lists[STATUSES[index].id] = result.value;
  });
  const failed = results.find((result) => result.status === 'rejected');
  state.listError = failed ? failed.reason.message : null;
  renderInbox();
}

async function loadMore() {
  const list = state.lists[state.tab];
  if (!list?.next_cursor) return;
  try {
    const page = await api.listThreads(state.tab, list.next_cursor, state.filters);
    state.lists[state.tab] = {
      items: [...list.items, ...page.items],
      next_cursor: page.next_cursor,
    };
    state.listError = null;
  } catch (error) {
    state.listError = error.message;
  }
  renderInbox();
}

/**
 * Records the draft about to be shown; when it is another text than the one this page showed, and
 * this page did not make it (`own`: its own save, redraft or retry), the change is to be told.
 * Returns whether a change is now told (for the caller to announce it).
 */
function noteDraftChange(thread, own) {
  const shown = state.shownDraft?.thread_id === thread.thread_id ? state.shownDraft : null;
  if (thread.draft === null) return false;
  const ownRun = state.ownRunOf === thread.thread_id;
  if (ownRun && thread.status !== 'drafting') state.ownRunOf = null;
  state.shownDraft = {
    thread_id: thread.thread_id,
    revision: thread.revision,
    draft: thread.draft,
  };
  if (own || ownRun) {
    state.draftChange = null;
    return false;
  }
  if (!shown || shown.draft === thread.draft || thread.status !== 'awaiting_review') return false;
  // Changes that follow one not yet dismissed are told against the text the reviewer had read.
  const standing = state.draftChange?.thread_id === thread.thread_id ? state.draftChange : null;
  state.draftChange = {
    thread_id: thread.thread_id,
    earlier: standing?.earlier ?? shown.draft,
    earlierRevision: standing?.earlierRevision ?? shown.revision,
    revision: thread.revision,
    noticedAt: Date.now(),
    showEarlier: standing?.showEarlier ?? false,
  };
  return true;
}

/**
 * Shows a thread as the service returned it; the reviewer's unsaved text survives only if the
 * draft did not change under it. `own`: this page's own action returned it. Returns whether the
 * draft changed because of someone else (see noteDraftChange).
 */
function showThread(thread, own = false) {
  const changedElsewhere = noteDraftChange(thread, own);
  const previous = state.thread;
  const sameDraft =
    previous?.thread_id === thread.thread_id &&
    previous.revision === thread.revision &&
    thread.status === 'awaiting_review';
  if (!sameDraft) {
    // A decision is confirmed on the draft it was opened on, never on one that replaced it.
    state.confirming = null;
    if (state.draftValue !== null && previous?.thread_id === thread.thread_id && !state.notice)
      state.notice = {
        kind: 'info',
        text: 'The draft changed elsewhere; your unsaved edit was replaced.',
      };
    state.draftValue = null;
  }
  if (previous?.thread_id !== thread.thread_id) forgetTyped();
  state.thread = thread;
  watchDelivery(thread, reloadOpenThread);
  return changedElsewhere;
}

/** Reads the draft change out (the page's persistent live region), when one was just told. */
function announceDraftChange(told) {
  if (told) announce(draftChangeAnnouncement(state.draftChange, state.history));
}

/** What the reviewer typed for one thread, not carried over to another. */
function forgetTyped() {
  state.instructionsValue = '';
  state.recipientValue = null;
  state.reasonValue = '';
  state.rejectReasonValue = '';
  state.redeliverToValue = '';
}

/**
 * Shows the open thread as it changes, without a reload: its delivery (see watchDelivery), and any
 * change GET /events reports (onThreadChange). A draft the reviewer is typing is never replaced.
 */
async function reloadOpenThread(id) {
  if (state.selectedId !== id || state.busy) return;
  let thread;
  try {
    thread = await api.getThread(id);
  } catch {
    // Not reachable just now: ask again, later.
    if (state.selectedId === id) watchDelivery(state.thread, reloadOpenThread);
    return;
  }
  const before = state.thread;
  if (state.selectedId !== id || state.busy || !before) return;
  // An answer that left before this page's own change landed: the page already shows newer.
  if (thread.revision < before.revision) return;
  const changed =
    ['status', 'attempts', 'last_error', 'to'].some(
      (field) => before.delivery?.[field] !== thread.delivery?.[field],
    ) || before.revision !== thread.revision;
  if (!changed && before.status === thread.status) {
    watchDelivery(before, reloadOpenThread);
    return;
  }
  const history = await loadHistory(id);
  if (state.selectedId !== id || state.busy) return;
  if (state.draftValue !== null) {
    showNewerRevision(thread);
    return;
  }
  const detail = byId('detail');
  const focused = detail.contains(document.activeElement) ? document.activeElement.id : undefined;
  state.history = history;
  const told = showThread(thread);
  renderDetail({ focus: focused });
  announceDraftChange(told);
  const status = thread.delivery?.status;
  if (status && status !== before.delivery?.status) announce(`Delivery: ${deliveryText(status)}`);
  if (status !== 'queued') await refreshLists();
}

async function openThread(id) {
  state.selectedId = id;
  state.loadError = null;
  state.notice = null;
  if (state.thread?.thread_id !== id) {
    state.thread = null;
    state.history = null;
    state.draftValue = null;
    state.confirming = null;
    state.shownDraft = null;
    state.draftChange = null;
    forgetTyped();
    watchDelivery(null, reloadOpenThread);
  }
  renderInbox();
  renderDetail();
  let told = false;
  try {
    const [thread, history] = await Promise.all([api.getThread(id), loadHistory(id)]);
    if (state.selectedId !== id) return;
    state.history = history;
    told = showThread(thread);
  } catch (error) {
    if (state.selectedId !== id) return;
    state.loadError =
      error.status === 404
        ? 'This thread does not exist (any more).'
        : `The thread could not be loaded: ${error.message}`;
  }
  renderDetail({ focus: 'thread-title' });
  announceDraftChange(told);
}

/** The thread's events for the timeline; null (the timeline says so) when they cannot be loaded. */
async function loadHistory(id) {
  try {
    return (await api.getHistory(id)).events;
  } catch {
    return null;
  }
}

/** The field to correct when the service refuses what was typed for an action. */
const FIELD_OF = { approve: 'recipient', reject: 'reject-reason', redeliver: 'redeliver-to' };
/** Controls that are gone once their action is done: focus goes to the thread's title instead. */
const DECISION_CONTROLS = new Set([
  'approve',
  'reject',
  'confirm-approve',
  'confirm-reject',
  'cancel-decision',
  'recipient',
  'reject-reason',
]);

/** Runs one reviewer action with the thread locked, then shows the thread's real state whatever happened. */
async function act(kind, call) {
  const thread = state.thread;
  if (!thread || state.busy) return;
  const id = thread.thread_id;
  const focus = document.activeElement?.id;
  const typed = state.draftValue;
  let savedOverOther = false;
  state.busy = BUSY[kind];
  state.notice = null;
  announce(state.busy);
  renderDetail();
  let notice;
  let updated;
  let own = false;
  // A refused recipient or reason leaves its confirmation open, to be corrected there.
  let correct = null;
  try {
    updated = await call(thread);
    own = true;
    // A redraft or retry whose model run still goes on: the draft it brings is this page's own.
    if (updated.status === 'drafting') state.ownRunOf = id;
    notice = { kind: 'success', text: DONE[kind](updated) };
    state.draftValue = null;
    state.confirming = null;
    if (kind === 'redraft') state.instructionsValue = '';
    if (kind === 'redeliver') state.redeliverToValue = '';
  } catch (error) {
    notice = { kind: 'error', text: explain(kind, error, thread) };
    savedOverOther = kind === 'save' && error.code === 'revision_mismatch';
    correct = error.status === 400 || error.code === 'recipient_required' ? FIELD_OF[kind] : null;
    if (!correct) state.confirming = null;
    try {
      updated = await api.getThread(id);
    } catch (reloadError) {
      notice.text += ` Its current state could not be loaded: ${reloadError.message}`;
    }
  }
  const history = await loadHistory(id);
  state.busy = null;
  if (state.selectedId === id) {
    state.notice = notice;
    state.history = history;
    // Refused because someone else acted first: what they changed is told like any other change.
    const told = updated ? showThread(updated, own) : false;
    // A save refused because the draft changed elsewhere keeps what the reviewer typed, now over
    // the new revision (unsaved): losing it would be the worst answer to a race they did not see.
    if (savedOverOther && typed !== null && updated?.status === 'awaiting_review')
      state.draftValue = typed;
    announce(
      told ? `${notice.text} ${draftChangeAnnouncement(state.draftChange, history)}` : notice.text,
    );
    // Approved without a recipient: the next thing to do is to enter one.
    const next = updated?.delivery?.status === 'no_recipient' ? 'redeliver-to' : 'thread-title';
    renderDetail({
      focus: correct ?? (DECISION_CONTROLS.has(focus) ? next : focus),
      fallback: 'thread-title',
    });
  }
  await refreshLists();
}

/** The thread id in the hash, or null; a malformed hash (bad percent-encoding) is ignored. */
function threadIdOfHash(hash) {
  const match = /^#\/threads\/(.+)$/.exec(hash);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

const LEAVE_EDIT = 'Leave this thread? Your unsaved edit of the draft will be lost.';

/** Whether the reviewer has typed a draft that differs from the one shown. */
const editing = () => state.draftValue !== null && state.draftValue !== state.thread?.draft;

function route() {
  const id = threadIdOfHash(window.location.hash);
  // Leaving a thread whose draft is being edited asks first; staying puts its address back.
  if (editing() && state.selectedId !== null && id !== state.selectedId) {
    if (!window.confirm(LEAVE_EDIT)) {
      window.history.replaceState(null, '', `#/threads/${encodeURIComponent(state.selectedId)}`);
      return;
    }
    state.draftValue = null;
  }
  if (id === null) {
    state.selectedId = null;
    state.thread = null;
    state.shownDraft = null;
    state.draftChange = null;
    watchDelivery(null, reloadOpenThread);
    renderInbox();
    renderDetail();
    return;
  }
  if (id !== state.selectedId || !state.thread) void openThread(id);
}

async function refreshAll() {
  const lists = refreshLists();
  if (state.selectedId && !state.busy) await openThread(state.selectedId);
  await lists;
}

let listRefresh;
/** Changes come in bursts (a create is two: created, then drafted): one list reload per burst. */
function refreshListsSoon() {
  clearTimeout(listRefresh);
  listRefresh = setTimeout(() => void refreshLists(), 150);
}

/**
 * A change of a thread somewhere (another tab, another reviewer, the delivery worker): the lists
 * reload, and the open thread is shown as it now is, unless the reviewer is typing a draft: then
 * the page only says that a newer revision exists, and the text under the cursor stays.
 */
function onThreadChange(change) {
  refreshListsSoon();
  const shown = state.thread;
  if (change.thread_id !== state.selectedId || !shown || state.busy) return;
  const same =
    change.revision === shown.revision &&
    change.status === shown.status &&
    (change.delivery ?? null) === (shown.delivery?.status ?? null);
  if (same) return;
  if (state.draftValue !== null) {
    showNewerRevision(change);
    return;
  }
  void reloadOpenThread(change.thread_id);
}

/** The banner over an edited draft; it replaces nothing else on the page. */
function showNewerRevision(change) {
  const article = byId('detail').querySelector('article.thread');
  if (!article) return;
  const text = `This thread changed elsewhere: it is now at revision ${change.revision} (${change.status}). Your edit is kept until you choose.`;
  let banner = document.getElementById('newer-revision');
  if (!banner) {
    banner = h(
      'div',
      { class: 'notice notice-info', id: 'newer-revision', role: 'status' },
      h('span', { id: 'newer-revision-text', text }),
      h('button', {
        type: 'button',
        class: 'button ghost',
        id: 'show-newer-revision',
        text: 'Show it (discard my edit)',
        onclick: () => {
          state.draftValue = null;
          void reloadOpenThread(state.selectedId);
        },
      }),
    );
    article.prepend(banner);
  } else {
    byId('newer-revision-text').textContent = text;
  }
  announce(text);
}

/**
 * The stream lost changes it cannot replay (`reset`): the lists are reloaded, and so is the open
 * thread (a draft being typed stays, under the banner, as for any change).
 */
function onReset() {
  refreshListsSoon();
  if (state.selectedId && !state.busy) void reloadOpenThread(state.selectedId);
}

const live = followChanges({ onChange: onThreadChange, onReset });

onTokenNeeded(askForToken);
byId('refresh').addEventListener('click', () => void refreshAll());
mountLearningPanel();
byId('load-more').addEventListener('click', () => void loadMore());
byId('forget-token').addEventListener('click', () => {
  forgetToken();
  state.lists = {};
  renderInbox();
  void refreshAll();
});
window.addEventListener('hashchange', route);
// A reload or a closed tab with an unsaved edit: the browser asks.
window.addEventListener('beforeunload', (event) => {
  if (editing()) event.preventDefault();
});
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && !state.busy) void refreshLists();
});

/** The category filter offers the service's own categories (its support profile's). */
async function loadCategories() {
  try {
    const { categories } = await api.getLabels();
    byId('category-filter').replaceChildren(
      h('option', { value: '', text: 'All categories' }),
      ...categories.map(({ name }) => h('option', { value: name, text: humanize(name) })),
    );
  } catch {
    // The filter keeps "All categories"; the lists say what is wrong with the service.
  }
}

function applyFilters() {
  state.filters = {
    category: byId('category-filter').value,
    grounding: byId('ungrounded-filter').checked ? 'none' : '',
  };
  state.lists = {};
  renderInbox();
  void refreshLists();
}
byId('category-filter').addEventListener('change', applyFilters);
byId('ungrounded-filter').addEventListener('change', applyFilters);

renderInbox();
route();
void refreshLists();
void loadCategories();
