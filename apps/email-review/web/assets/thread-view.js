/* global navigator */
import { decisionView, recipientInput } from './decision-view.js';
import { draftChangeNotice } from './draft-change.js';
import { h } from './dom.js';
import { fullDate, humanize, statusLabel, threadTitle } from './format.js';
import { shapedBy } from './guidelines-view.js';

const isMac = /Mac|iPhone|iPad/.test(navigator.platform ?? '');
const SAVE_KEYS = isMac ? '⌘ Enter' : 'Ctrl + Enter';

/** Ctrl/Cmd+Enter inside a text area submits it. */
function submitOnModEnter(action) {
  return (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      action();
    }
  };
}

function section(id, title, ...content) {
  return h(
    'section',
    { class: 'card', 'aria-labelledby': id },
    h('h3', { id, class: 'card-title', text: title }),
    ...content,
  );
}

/** Before approval: where the reply would go, the customer's address or nobody. */
function recipient(thread) {
  if (thread.delivery || thread.status === 'rejected') return null;
  const from = thread.email?.from;
  return from
    ? h('span', { class: 'meta-item', 'data-field': 'recipient', text: `Reply to ${from}` })
    : h('span', {
        class: 'chip recipient-missing',
        'data-field': 'recipient',
        text: 'No recipient',
      });
}

function header(thread, actions, onBack) {
  const category = thread.classification?.category;
  const meta = [
    category &&
      h('span', { class: 'chip', 'data-field': 'title-category', text: humanize(category) }),
    h('span', {
      class: `chip status-${thread.status}`,
      'data-field': 'status',
      text: statusLabel(thread.status),
    }),
    h('span', {
      class: 'meta-item',
      'data-field': 'revision',
      text: `Revision ${thread.revision}`,
    }),
    h('span', { class: 'meta-item', text: `Received ${fullDate(thread.created_at)}` }),
    thread.sent_at && h('span', { class: 'meta-item', text: `Sent ${fullDate(thread.sent_at)}` }),
    recipient(thread),
  ];
  return h(
    'header',
    { class: 'thread-head' },
    h('button', {
      type: 'button',
      id: 'back',
      class: 'button ghost back',
      onclick: onBack,
      text: '← Inbox',
    }),
    h(
      'div',
      { class: 'thread-head-row' },
      h(
        'div',
        { class: 'thread-head-text' },
        h('h2', { id: 'thread-title', tabindex: '-1', text: threadTitle(thread) }),
        h('div', { class: 'thread-meta' }, ...meta),
      ),
      actions,
    ),
  );
}

function noticeBox(notice) {
  if (!notice) return null;
  // Errors interrupt (role=alert); other news is read out by the page's persistent live region.
  const role = notice.kind === 'error' ? 'alert' : undefined;
  return h('div', { class: `notice notice-${notice.kind}`, role, id: 'notice', text: notice.text });
}

/** The notice of a draft changed by someone else, over a draft still to be decided on. */
function draftChange(thread, state, on) {
  const change = state.draftChange;
  if (thread.status !== 'awaiting_review' || change?.thread_id !== thread.thread_id) return null;
  return draftChangeNotice(change, state.history, {
    toggleEarlier: on.toggleEarlier,
    dismiss: on.dismissDraftChange,
  });
}

function busyBar(busy) {
  return h(
    'div',
    { class: 'busy', id: 'busy', hidden: !busy },
    h('span', { class: 'spinner', 'aria-hidden': 'true' }),
    h('span', { text: busy ?? '' }),
  );
}

function classification(thread) {
  const c = thread.classification;
  if (!c)
    return section(
      'cls-title',
      'Classification',
      h('p', { class: 'muted', text: 'Not classified yet.' }),
    );
  return section(
    'cls-title',
    'Classification',
    h(
      'dl',
      { class: 'facts' },
      h(
        'div',
        {},
        h('dt', { text: 'Category' }),
        h(
          'dd',
          { 'data-field': 'category' },
          h('span', { class: 'chip', text: humanize(c.category) }),
        ),
      ),
      h(
        'div',
        {},
        h('dt', { text: 'Urgency' }),
        h(
          'dd',
          { 'data-field': 'urgency' },
          h('span', { class: `chip urgency-${c.urgency}`, text: humanize(c.urgency) }),
        ),
      ),
      h(
        'div',
        { class: 'facts-wide' },
        h('dt', { text: 'Summary' }),
        h('dd', { 'data-field': 'summary', text: c.summary }),
      ),
    ),
  );
}

/** A follow-up: the customer answered a reply sent from an earlier thread, linked here. */
function earlierThread(thread) {
  if (!thread.previous_thread_id) return null;
  return h(
    'p',
    { class: 'muted', id: 'previous-thread' },
    'Answers the reply sent in ',
    h('a', {
      href: `#/threads/${encodeURIComponent(thread.previous_thread_id)}`,
      id: 'previous-thread-link',
      text: 'an earlier thread',
    }),
    '.',
  );
}

function inbound(thread) {
  return section(
    'inbound-title',
    'Inbound email',
    earlierThread(thread),
    h('pre', { class: 'email-text', id: 'inbound-text', text: thread.inbound }),
  );
}

function failure(thread, locked, on) {
  const message = thread.error
    ? `${thread.error.message} (${thread.error.code})`
    : 'The workflow stopped before the draft was ready.';
  return h(
    'section',
    { class: 'card card-failed', 'aria-labelledby': 'failed-title' },
    h('h3', { id: 'failed-title', class: 'card-title', text: 'The workflow stopped' }),
    h('p', { id: 'failure-text', text: message }),
    h('p', {
      class: 'muted',
      text: 'Retry resumes it from the step that failed; steps already done are not repeated.',
    }),
    h(
      'div',
      { class: 'row' },
      h('button', {
        type: 'button',
        id: 'retry',
        class: 'button primary',
        disabled: locked,
        onclick: on.retry,
        text: 'Retry',
      }),
    ),
  );
}

const DELIVERY_TEXT = {
  queued: 'Queued: a worker is delivering it (and retries while the mail server is unavailable).',
  delivered: 'Delivered: the mail server accepted it.',
  failed: 'Failed: the mail server refused it. Fix the cause, then redeliver.',
  no_recipient: "Not sent: no recipient. Add the customer's address to send it.",
  logged: 'Logged (no SMTP configured): the reply was written to the service log, not emailed.',
};

/** What a delivery status means, in a sentence (also what is announced when it changes). */
export const deliveryText = (status) => DELIVERY_TEXT[status] ?? status;

/** A reply approved without a recipient: the address to send it to, then Send. */
function addRecipient(state, locked, on) {
  const input = recipientInput({
    id: 'redeliver-to',
    value: state.redeliverToValue ?? '',
    required: true,
    locked,
    describedBy: 'redeliver-to-hint',
    onInput: on.redeliverToInput,
  });
  const form = h(
    'form',
    { class: 'add-recipient', id: 'redeliver-form' },
    h('label', { for: 'redeliver-to', class: 'field-label', text: 'Recipient' }),
    h(
      'div',
      { class: 'row' },
      input,
      h('button', {
        type: 'submit',
        id: 'redeliver',
        class: 'button primary',
        disabled: locked,
        text: 'Send to this address',
      }),
    ),
    h('p', {
      class: 'hint',
      id: 'redeliver-to-hint',
      text: 'The approved reply, as it is shown above, is sent to this address.',
    }),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!locked) on.redeliver(input.value.trim());
  });
  return form;
}

function redeliverButton(locked, on) {
  return h(
    'div',
    { class: 'row' },
    h('button', {
      type: 'button',
      id: 'redeliver',
      class: 'button primary',
      disabled: locked,
      onclick: () => on.redeliver(),
      text: 'Redeliver',
    }),
  );
}

/** Where a sent reply's delivery stands; Redeliver on a failed one, a recipient for one without. */
function delivery(thread, state, locked, on) {
  const d = thread.delivery;
  if (!d) return null;
  const facts = [
    d.to && `To ${d.to}`,
    `${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`,
    d.delivered_at &&
      `${d.status === 'logged' ? 'logged' : 'delivered'} ${fullDate(d.delivered_at)}`,
  ].filter(Boolean);
  return h(
    'section',
    {
      class: `card delivery delivery-card-${d.status}`,
      'aria-labelledby': 'delivery-title',
      'data-delivery-status': d.status,
    },
    h('h3', { id: 'delivery-title', class: 'card-title', text: 'Delivery' }),
    h('p', { id: 'delivery-status', text: deliveryText(d.status) }),
    h('p', { class: 'muted', id: 'delivery-facts', text: facts.join(' · ') }),
    d.last_error &&
      h('p', { id: 'delivery-error', class: 'muted', text: `Last error: ${d.last_error}` }),
    d.last_response &&
      h('p', {
        id: 'delivery-response',
        class: 'muted',
        text: `Mail server’s last reply: ${d.last_response}`,
      }),
    d.status === 'failed' && redeliverButton(locked, on),
    d.status === 'no_recipient' && addRecipient(state, locked, on),
  );
}

/**
 * The help center passages the draft cites, beside it, as text (an article's markdown is never
 * rendered: its HTML and links stay characters); an ungrounded draft says so.
 */
function sources(grounding) {
  const removed = grounding.removed_citations;
  return section(
    'sources-title',
    'Help center sources',
    grounding.status === 'none' &&
      h('p', {
        class: 'notice notice-warning',
        id: 'ungrounded-notice',
        text: 'Ungrounded: this draft cites no help center article. Check its facts before approving.',
      }),
    ...grounding.articles.map((article) =>
      h(
        'div',
        { class: 'source', 'data-slug': article.slug },
        h('p', { class: 'source-title', text: `${article.title} · [kb:${article.slug}]` }),
        h('pre', { class: 'email-text source-passage', text: article.passage }),
      ),
    ),
    removed.length > 0 &&
      h('p', {
        class: 'muted',
        id: 'removed-citations',
        text: `Removed from the draft, not in the help center passages it was given: ${removed
          .map((slug) => `[kb:${slug}]`)
          .join(', ')}`,
      }),
  );
}

function readOnlyDraft(thread) {
  const title = thread.status === 'sent' ? 'Sent reply' : 'Draft reply';
  return section(
    'draft-title',
    `${title} · revision ${thread.revision}`,
    thread.draft === null
      ? h('p', { class: 'muted', text: 'No draft yet.' })
      : h('pre', { class: 'email-text draft-text', id: 'draft-text', text: thread.draft }),
  );
}

function editor(thread, state, busy, on) {
  const decision = decisionView(thread, state, busy, on);
  // While a decision is being confirmed, the draft on screen is what it decides on.
  const locked = busy || Boolean(state.confirming);
  const textarea = h('textarea', {
    id: 'draft',
    class: 'draft-input',
    rows: '12',
    spellcheck: 'true',
    'aria-describedby': 'draft-hint',
    disabled: locked,
    value: state.draftValue ?? thread.draft ?? '',
  });
  const save = h('button', {
    type: 'button',
    id: 'save-draft',
    class: 'button',
    text: 'Save draft',
  });
  const discard = h('button', {
    type: 'button',
    id: 'discard-draft',
    class: 'button ghost',
    text: 'Discard changes',
  });
  const dirtyHint = h('span', {
    class: 'dirty-hint',
    id: 'dirty-hint',
    text: 'Unsaved changes: save or discard them before approving.',
  });
  const syncDirty = () => {
    const dirty = textarea.value !== (thread.draft ?? '');
    save.disabled = locked || !dirty || textarea.value.trim() === '';
    if (decision.approve) decision.approve.disabled = locked || dirty;
    dirtyHint.hidden = !dirty;
    discard.hidden = !dirty;
    discard.disabled = locked;
    on.draftInput(dirty ? textarea.value : null);
  };
  const doSave = () => {
    if (!save.disabled) on.save(textarea.value);
  };
  textarea.addEventListener('input', syncDirty);
  textarea.addEventListener('keydown', submitOnModEnter(doSave));
  save.addEventListener('click', doSave);
  discard.addEventListener('click', () => {
    textarea.value = thread.draft ?? '';
    syncDirty();
    textarea.focus();
  });

  const instructions = h('textarea', {
    id: 'instructions',
    class: 'instructions-input',
    rows: '2',
    placeholder: 'e.g. Shorter, and offer a call back tomorrow',
    'aria-describedby': 'instructions-hint',
    disabled: locked,
    value: state.instructionsValue ?? '',
  });
  const redraft = h('button', { type: 'button', id: 'redraft', class: 'button', text: 'Redraft' });
  const syncInstructions = () => {
    redraft.disabled = locked || instructions.value.trim() === '';
    on.instructionsInput(instructions.value);
  };
  const doRedraft = () => {
    if (!redraft.disabled) on.redraft(instructions.value.trim());
  };
  instructions.addEventListener('input', syncInstructions);
  instructions.addEventListener('keydown', submitOnModEnter(doRedraft));
  redraft.addEventListener('click', doRedraft);

  syncDirty();
  syncInstructions();

  const sections = [
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'draft-title' },
      h(
        'h3',
        { class: 'card-title', id: 'draft-title' },
        h('label', { for: 'draft', text: 'Draft reply' }),
        h('span', { class: 'card-aside', text: `revision ${thread.revision}` }),
      ),
      textarea,
      h(
        'div',
        { class: 'row' },
        save,
        discard,
        h('span', { class: 'hint', id: 'draft-hint', text: `${SAVE_KEYS} saves` }),
        dirtyHint,
      ),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'instructions-title' },
      h(
        'h3',
        { class: 'card-title', id: 'instructions-title' },
        h('label', { for: 'instructions', text: 'Ask for a redraft' }),
      ),
      instructions,
      h(
        'div',
        { class: 'row' },
        redraft,
        h('span', {
          class: 'hint',
          id: 'instructions-hint',
          text: `The model rewrites the draft with your instructions · ${SAVE_KEYS} sends`,
        }),
      ),
    ),
  ];
  return { sections, decision: decision.element };
}

/**
 * The open thread. `state`: { busy: label | null, notice, draftValue, instructionsValue,
 * confirming, recipientValue, reasonValue, redeliverToValue, draftChange, history }; `on`: the
 * reviewer's actions (save, redraft, startDecision, cancelDecision, approve, reject, retry,
 * redeliver, back, toggleEarlier, dismissDraftChange, and the *Input callbacks that keep what was
 * typed across renders).
 */
export function threadView(thread, state, on) {
  const locked = Boolean(state.busy);
  const context = [inbound(thread), classification(thread)];
  const reply = [];
  if (thread.status === 'failed') reply.push(failure(thread, locked, on));
  if (thread.status === 'drafting')
    reply.push(
      h('p', {
        class: 'notice notice-info',
        text: 'The model is still drafting this reply. Refresh in a moment.',
      }),
    );
  let decision = null;
  if (thread.status === 'awaiting_review') {
    const edit = editor(thread, state, locked, on);
    reply.push(...edit.sections);
    decision = edit.decision;
  } else reply.push(readOnlyDraft(thread));
  if (thread.grounding) reply.push(sources(thread.grounding));
  if (thread.drafted_with?.guidelines.length) reply.push(shapedBy(thread.drafted_with.guidelines));
  if (thread.status === 'sent') reply.push(delivery(thread, state, locked, on));

  return h(
    'article',
    {
      class: 'thread',
      'aria-labelledby': 'thread-title',
      'aria-busy': String(locked),
      'data-thread-id': thread.thread_id,
      'data-status': thread.status,
    },
    header(thread, decision, on.back),
    draftChange(thread, state, on),
    noticeBox(state.notice),
    busyBar(state.busy),
    h(
      'div',
      { class: 'thread-body' },
      h('div', { class: 'column column-context' }, ...context),
      h('div', { class: 'column column-reply' }, ...reply),
    ),
  );
}
