import { h } from './dom.js';

/** The longest recipient the API accepts (MAILBOX_MAX_CHARS) and reason it keeps (REASON_MAX_CHARS). */
const RECIPIENT_MAX_CHARS = 320;
const REASON_MAX_CHARS = 2000;

/** Escape anywhere in a confirmation step cancels it. */
function cancelOnEscape(cancel) {
  return (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      cancel();
    }
  };
}

function confirmStep({ kind, title, fields, confirm, locked, on, submit }) {
  const form = h(
    'form',
    {
      class: `decision decision-confirm confirm-${kind}`,
      id: `confirm-${kind}-form`,
      'aria-labelledby': `confirm-${kind}-title`,
      onkeydown: cancelOnEscape(on.cancelDecision),
    },
    h('p', { class: 'confirm-title', id: `confirm-${kind}-title`, text: title }),
    ...fields,
    h(
      'div',
      { class: 'confirm-actions' },
      h('button', {
        type: 'submit',
        id: `confirm-${kind}`,
        class: `button ${kind === 'approve' ? 'primary' : 'danger-solid'}`,
        disabled: locked,
        text: confirm,
      }),
      h('button', {
        type: 'button',
        id: 'cancel-decision',
        class: 'button ghost',
        disabled: locked,
        onclick: on.cancelDecision,
        text: 'Cancel',
      }),
      h('span', { class: 'hint', text: 'Esc cancels' }),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!locked) submit();
  });
  return form;
}

/** What the recipient field holds, in words: the customer's own address, another, or none. */
function recipientHint(value, from) {
  if (!value)
    return 'No recipient: the email had no sender address. Nothing will be sent unless you enter an address here (you can also add one after approving).';
  if (value === from) return "The customer's address, from their email.";
  return from ? `Instead of the customer's address (${from}).` : 'Entered by you.';
}

/** The Confirm button's words: approving with no recipient sends nothing, and says so. */
const confirmApproveText = (value) => (value ? 'Confirm approve' : 'Approve without sending');

/** A field for one email address (`Name <address>` or the address alone); `onInput(value)`. */
export function recipientInput({ id, value, required, locked, onInput, describedBy }) {
  const input = h('input', {
    id,
    name: 'to',
    type: 'text',
    class: 'text-input',
    autocomplete: 'off',
    spellcheck: 'false',
    maxlength: String(RECIPIENT_MAX_CHARS),
    required,
    'aria-describedby': describedBy,
    disabled: locked,
    value,
  });
  input.addEventListener('input', () => onInput(input.value));
  return input;
}

function confirmApprove(thread, state, locked, on) {
  const from = thread.email?.from ?? '';
  // Announced as it changes: whether anything will be sent depends on what is typed.
  const hint = h('p', { class: 'hint', id: 'recipient-hint', 'aria-live': 'polite' });
  const sync = () => {
    const value = input.value.trim();
    hint.textContent = recipientHint(value, from);
    const confirm = step.querySelector('#confirm-approve');
    if (confirm) confirm.textContent = confirmApproveText(value);
  };
  const input = recipientInput({
    id: 'recipient',
    value: state.recipientValue ?? from,
    // The service replies to the sender when no `to` is given, so with a sender an empty field
    // would not mean "nobody": ask for an address instead. Without one, an empty field approves
    // without sending (`no_recipient`); the address can be added afterwards.
    required: from !== '',
    locked,
    describedBy: 'recipient-hint',
    onInput: (value) => {
      on.recipientInput(value);
      sync();
    },
  });
  const step = confirmStep({
    kind: 'approve',
    title: from
      ? `Approve revision ${thread.revision} and send it?`
      : `Approve revision ${thread.revision}? It is sent only to an address you enter.`,
    fields: [h('label', { for: 'recipient', class: 'field-label', text: 'Send to' }), input, hint],
    confirm: confirmApproveText(input.value.trim()),
    locked,
    on,
    submit: () => on.approve(input.value.trim()),
  });
  sync();
  return step;
}

/** GET /quality counts rejections by these (the service's REJECT_REASONS). */
const REJECT_REASONS = [
  ['wrong_facts', 'Wrong facts'],
  ['wrong_tone', 'Wrong tone'],
  ['incomplete', 'Incomplete'],
  ['not_needed', 'No reply needed'],
  ['policy', 'Against policy'],
  ['other', 'Other'],
];

function confirmReject(state, locked, on) {
  const reason = h(
    'select',
    { id: 'reject-category', name: 'reject-category', class: 'text-input', disabled: locked },
    h('option', { value: '', text: 'Choose a reason' }),
    ...REJECT_REASONS.map(([value, label]) =>
      h('option', { value, text: label, selected: state.rejectReasonValue === value }),
    ),
  );
  reason.addEventListener('change', () => on.rejectReasonInput(reason.value));
  const input = h('input', {
    id: 'reject-reason',
    name: 'reason',
    type: 'text',
    class: 'text-input',
    autocomplete: 'off',
    maxlength: String(REASON_MAX_CHARS),
    'aria-describedby': 'reject-reason-hint',
    disabled: locked,
    value: state.reasonValue ?? '',
  });
  input.addEventListener('input', () => on.reasonInput(input.value));
  return confirmStep({
    kind: 'reject',
    title: 'Reject this thread? No reply will be sent.',
    fields: [
      h('label', { for: 'reject-category', class: 'field-label', text: 'Kind of problem' }),
      reason,
      h('label', { for: 'reject-reason', class: 'field-label', text: 'Reason (optional)' }),
      input,
      h('p', {
        class: 'hint',
        id: 'reject-reason-hint',
        text: 'Both kept in the thread’s history; the kind is counted in the draft quality figures.',
      }),
    ],
    confirm: 'Confirm reject',
    locked,
    on,
    submit: () => on.reject(reason.value, input.value.trim()),
  });
}

/**
 * Approve and Reject. Neither acts on the first click: each opens a small inline step (the
 * recipient, or the reason) whose Confirm acts and whose Cancel or Escape goes back.
 * `state.confirming`: the decision being confirmed ('approve' | 'reject' | null).
 * Returns the element, and the Approve button (for the editor to disable while the draft is dirty).
 */
export function decisionView(thread, state, locked, on) {
  if (state.confirming === 'approve')
    return { element: confirmApprove(thread, state, locked, on), approve: null };
  if (state.confirming === 'reject')
    return { element: confirmReject(state, locked, on), approve: null };
  const approve = h('button', {
    type: 'button',
    id: 'approve',
    class: 'button primary',
    onclick: () => on.startDecision('approve'),
    text: 'Approve & send',
  });
  const element = h(
    'div',
    { class: 'decision', role: 'group', 'aria-label': 'Decision' },
    approve,
    h('button', {
      type: 'button',
      id: 'reject',
      class: 'button danger',
      disabled: locked,
      onclick: () => on.startDecision('reject'),
      text: 'Reject',
    }),
  );
  return { element, approve };
}
