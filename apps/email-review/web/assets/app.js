import { api, onTokenNeeded } from './api.js';
import { byId, h } from './dom.js';
import { STATUSES } from './format.js';
import { renderList, renderTabs } from './inbox.js';
import { historyTimeline } from './history-view.js';
import { threadView } from './thread-view.js';
import { askForToken } from './token-dialog.js';
import { forgetToken, readToken } from './token.js';

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
};

const BUSY = {
  save: 'Saving the draft…',
  redraft: 'The model is redrafting the reply…',
  approve: 'Sending the reply…',
  reject: 'Rejecting the thread…',
  retry: 'The model is resuming the workflow…',
  redeliver: 'Queueing the reply again…',
};
const VERBS = {
  save: 'save the draft',
  redraft: 'redraft the reply',
  approve: 'approve and send',
  reject: 'reject the thread',
  retry: 'retry the workflow',
  redeliver: 'queue the reply again',
};
const DONE = {
  save: (t) => `Draft saved as revision ${t.revision}.`,
  redraft: (t) => `New draft ready: revision ${t.revision}.`,
  approve: () => 'Approved: the reply is queued for delivery.',
  redeliver: () => 'The reply is queued for delivery again.',
  reject: () => 'Rejected: no reply will be sent.',
  retry: (t) =>
    t.status === 'awaiting_review' ? 'The draft is ready for review.' : 'The workflow ran again.',
};

function announce(text) {
  byId('announcer').textContent = text;
}

function explain(kind, error, shown) {
  const verb = VERBS[kind];
  if (error.code === 'revision_mismatch')
    return `Could not ${verb}: the draft was changed by someone else while you were reading revision ${shown.revision} (it is now at revision ${error.problem.revision ?? 'a newer one'}). Nothing was done. The new draft is shown below: read it before you act.`;
  if (error.status === 409)
    return `Could not ${verb}: someone else acted on this thread first (${error.message}). It is now shown as it really is.`;
  if (error.status === 502)
    return `Could not ${verb}: the language model did not answer (${error.message}). Nothing was lost; try again later.`;
  if (error.status === 404) return `Could not ${verb}: this thread no longer exists.`;
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
  approve: () => act('approve', (t) => api.approve(t.thread_id, t.revision)),
  reject: () => act('reject', (t) => api.reject(t.thread_id, t.revision)),
  retry: () => act('retry', (t) => api.retry(t.thread_id)),
  redeliver: () => act('redeliver', (t) => api.redeliver(t.thread_id)),
  back: () => {
    window.location.hash = '';
  },
  draftInput: (value) => {
    state.draftValue = value;
  },
  instructionsInput: (value) => {
    state.instructionsValue = value;
  },
};

function renderDetail({ focus } = {}) {
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
  const target = focus && document.getElementById(focus);
  if (target && !target.disabled) target.focus();
}

async function refreshLists() {
  const results = await Promise.allSettled(STATUSES.map(({ id }) => api.listThreads(id)));
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
    const page = await api.listThreads(state.tab, list.next_cursor);
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

/** Shows a thread as the service returned it; the reviewer's unsaved text survives only if the draft did not change under it. */
function showThread(thread) {
  const previous = state.thread;
  const sameDraft =
    previous?.thread_id === thread.thread_id &&
    previous.revision === thread.revision &&
    thread.status === 'awaiting_review';
  if (!sameDraft) {
    if (state.draftValue !== null && previous?.thread_id === thread.thread_id && !state.notice)
      state.notice = {
        kind: 'info',
        text: 'The draft changed elsewhere; your unsaved edit was replaced.',
      };
    state.draftValue = null;
  }
  if (previous?.thread_id !== thread.thread_id) state.instructionsValue = '';
  state.thread = thread;
}

async function openThread(id) {
  state.selectedId = id;
  state.loadError = null;
  state.notice = null;
  if (state.thread?.thread_id !== id) {
    state.thread = null;
    state.history = null;
    state.draftValue = null;
    state.instructionsValue = '';
  }
  renderInbox();
  renderDetail();
  try {
    const [thread, history] = await Promise.all([api.getThread(id), loadHistory(id)]);
    if (state.selectedId !== id) return;
    showThread(thread);
    state.history = history;
  } catch (error) {
    if (state.selectedId !== id) return;
    state.loadError =
      error.status === 404
        ? 'This thread does not exist (any more).'
        : `The thread could not be loaded: ${error.message}`;
  }
  renderDetail({ focus: 'thread-title' });
}

/** The thread's events for the timeline; null (the timeline says so) when they cannot be loaded. */
async function loadHistory(id) {
  try {
    return (await api.getHistory(id)).events;
  } catch {
    return null;
  }
}

/** Runs one reviewer action with the thread locked, then shows the thread's real state whatever happened. */
async function act(kind, call) {
  const thread = state.thread;
  if (!thread || state.busy) return;
  const id = thread.thread_id;
  const focus = document.activeElement?.id;
  state.busy = BUSY[kind];
  state.notice = null;
  announce(state.busy);
  renderDetail();
  let notice;
  let updated;
  try {
    updated = await call(thread);
    notice = { kind: 'success', text: DONE[kind](updated) };
    state.draftValue = null;
    if (kind === 'redraft') state.instructionsValue = '';
  } catch (error) {
    notice = { kind: 'error', text: explain(kind, error, thread) };
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
    if (updated) showThread(updated);
    state.history = history;
    announce(notice.text);
    renderDetail({
      focus: focus && focus !== 'approve' && focus !== 'reject' ? focus : 'thread-title',
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

function route() {
  const id = threadIdOfHash(window.location.hash);
  if (id === null) {
    state.selectedId = null;
    state.thread = null;
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

onTokenNeeded(askForToken);
byId('refresh').addEventListener('click', () => void refreshAll());
byId('load-more').addEventListener('click', () => void loadMore());
byId('forget-token').addEventListener('click', () => {
  forgetToken();
  state.lists = {};
  renderInbox();
  void refreshAll();
});
window.addEventListener('hashchange', route);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && !state.busy) void refreshLists();
});

renderInbox();
route();
void refreshLists();
