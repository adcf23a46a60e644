import { byId, h } from './dom.js';
import { clockTime } from './format.js';

/**
 * A draft that changed in front of the reviewer because of someone else (another reviewer, a
 * redraft, a retry): who changed it and when (from the thread's history), and the text they had
 * read. `change`: { thread_id, earlier, earlierRevision, revision, noticedAt, showEarlier }.
 */

/** The events after which the draft is another text, each with the revision it made. */
const DRAFT_EVENTS = new Set(['edited', 'redrafted', 'drafted', 'recovered']);

/** A person in the history: a reviewer's name (token name, JWT email or sub) where the service knows it. */
function person(actor) {
  if (actor === 'system') return 'the service';
  // `reviewer` is the single API_TOKEN's actor, `anonymous` an unauthenticated service's.
  if (!actor || actor === 'reviewer' || actor === 'anonymous') return 'a reviewer';
  return actor;
}

/** What one draft event did, in words; `retried`: the retry that led to a `drafted`, if any. */
function whatHappened(event, retried) {
  if (event.type === 'edited') return `${person(event.actor)} edited it`;
  if (event.type === 'redrafted')
    return `the model redrafted it at ${person(event.actor)}’s request`;
  if (event.type === 'recovered') return 'the service recovered it after a crash';
  return retried
    ? `the model drafted it again after ${person(retried.actor)} retried the workflow`
    : 'the model drafted it';
}

/** Who changed the draft after `sinceRevision`, and when (the last change); null without history. */
export function describeDraftChange(events, sinceRevision) {
  if (!events) return null;
  const steps = [];
  let at = null;
  let retried = null;
  for (const event of events) {
    if (event.type === 'retried') retried = event;
    if (!DRAFT_EVENTS.has(event.type)) continue;
    if (event.revision > sinceRevision) {
      steps.push(whatHappened(event, retried));
      at = event.at;
    }
    retried = null;
  }
  return steps.length === 0 ? null : { by: steps.join(', then '), at };
}

/** The change in a sentence's words: who (or "someone else"), and the revisions. */
function changeWords(change, events) {
  const described = describeDraftChange(events, change.earlierRevision);
  const revisions = `revision ${change.earlierRevision} → ${change.revision}`;
  return {
    by: `${described?.by ?? 'someone else changed it'} (${revisions})`,
    at: described?.at ?? new Date(change.noticedAt).toISOString(),
  };
}

/** What the live region reads out when the change is shown. */
export function draftChangeAnnouncement(change, events) {
  const { by, at } = changeWords(change, events);
  return `The draft you are reading changed: ${by} at ${clockTime(at)}. Approving now sends the new text; the earlier text is under the notice.`;
}

/** "20 s ago", "3 min ago", or "at 14:05:12". */
function ago(iso) {
  const seconds = Math.max(1, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  return `at ${clockTime(iso)}`;
}

/**
 * The notice over the thread, until the reviewer dismisses it. `on`: { toggleEarlier, dismiss }.
 * Every text from the draft or the history goes in as text (h() sets textContent), never as markup.
 */
export function draftChangeNotice(change, events, on) {
  const { by, at } = changeWords(change, events);
  const shown = Boolean(change.showEarlier);
  return h(
    'section',
    {
      class: 'notice notice-warning draft-change',
      id: 'draft-change',
      'aria-labelledby': 'draft-change-title',
    },
    h('h3', {
      class: 'draft-change-title',
      id: 'draft-change-title',
      text: 'The draft changed while you had it open',
    }),
    h(
      'p',
      { id: 'draft-change-text' },
      // Names stay as the service spells them (never capitalised): the sentence starts before them.
      `Meanwhile, ${by} at `,
      h('time', { datetime: at, text: clockTime(at) }),
      '. The editor shows the new text; Approve sends it.',
    ),
    h(
      'div',
      { class: 'row' },
      h('button', {
        type: 'button',
        class: 'button',
        id: 'draft-change-earlier',
        'aria-expanded': String(shown),
        'aria-controls': 'draft-change-earlier-block',
        onclick: on.toggleEarlier,
        text: shown ? 'Hide the earlier text' : 'Show the earlier text',
      }),
      h('button', {
        type: 'button',
        class: 'button ghost',
        id: 'draft-change-dismiss',
        onclick: on.dismiss,
        text: 'Dismiss',
      }),
    ),
    h(
      'div',
      { id: 'draft-change-earlier-block', class: 'draft-change-earlier', hidden: !shown },
      h('p', { class: 'hint', text: `Revision ${change.earlierRevision}, as you had it:` }),
      h('pre', { class: 'email-text', id: 'draft-change-earlier-text', text: change.earlier }),
    ),
  );
}

/**
 * Asks, in the page's modal dialog, whether to approve a draft that changed under the reviewer;
 * resolves true only on "Approve the new text" (Cancel, Escape: false).
 */
export function confirmChangedDraft(change, events) {
  const dialog = byId('draft-change-dialog');
  const { by, at } = changeWords(change, events);
  byId('draft-change-dialog-title').textContent =
    `The draft changed ${ago(at)} — approve the new text?`;
  byId('draft-change-dialog-text').textContent =
    `You read revision ${change.earlierRevision}; since then, ${by}. What is sent is revision ${change.revision}, the text now in the editor.`;
  return new Promise((resolve) => {
    const approve = byId('draft-change-approve');
    const cancel = byId('draft-change-cancel');
    const onApprove = () => dialog.close('approve');
    const onCancel = () => dialog.close('cancel');
    const onClose = () => {
      approve.removeEventListener('click', onApprove);
      cancel.removeEventListener('click', onCancel);
      resolve(dialog.returnValue === 'approve');
    };
    approve.addEventListener('click', onApprove);
    cancel.addEventListener('click', onCancel);
    dialog.addEventListener('close', onClose, { once: true });
    dialog.returnValue = '';
    dialog.showModal();
    // The safe answer has the focus: Enter alone never approves.
    cancel.focus();
  });
}
