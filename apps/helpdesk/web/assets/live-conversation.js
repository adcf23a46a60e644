import { headers } from './api.js';
import { addNotice, addOperatorMessage } from './conversation-view.js';
import { followLiveEvents } from './live-events.js';

/**
 * While the page shows a conversation it follows its live events: a person taking it over, their
 * messages, the hand back to the assistant, and the end of a wait for a person. Messages already
 * shown from the transcript (by their event id) are not shown twice.
 */
let follower;
const shown = new Set();

function setAnswering(text) {
  const banner = document.getElementById('answering');
  banner.textContent = text ?? '';
  banner.hidden = !text;
}

const personLabel = (operator) => `${operator} (a person)`;

function handle(name, data, id, announce) {
  if (name === 'state') {
    if (data.mode === 'human') setAnswering(`${personLabel(data.operator)} is answering.`);
    else if (data.mode === 'waiting') {
      setAnswering('Waiting for a person to join; the assistant keeps answering meanwhile.');
    } else setAnswering(undefined);
  } else if (name === 'handoff_requested') {
    // A banner, not a line: a reload shows the same (the stream's `state`), lines are live only.
    setAnswering('Waiting for a person to join; the assistant keeps answering meanwhile.');
    announce('You are in the queue for a person.');
  } else if (name === 'taken_over') {
    setAnswering(`${personLabel(data.operator)} is answering.`);
    addNotice(`${personLabel(data.operator)} joined the conversation.`);
    announce(`${personLabel(data.operator)} joined the conversation.`);
  } else if (name === 'operator_message') {
    if (id !== undefined && shown.has(id)) return;
    if (id !== undefined) shown.add(id);
    addOperatorMessage(data.text, data.operator);
    announce(`${personLabel(data.operator)}: ${data.text}`);
  } else if (name === 'handed_back') {
    setAnswering(undefined);
    addNotice('The assistant is answering again.');
  } else if (name === 'wait_timeout') {
    addNotice(data.text);
    announce(data.text);
  }
}

/** The transcript's messages that came as live events: not shown again when their event arrives. */
export function rememberShown(turns) {
  for (const turn of turns) if (turn.event_id !== undefined) shown.add(turn.event_id);
}

/** Follows `session`'s events after `after` (the transcript's `events_cursor`; 0 for a new one). */
export function followConversation(session, after, announce) {
  stopFollowing();
  const url = `sessions/${encodeURIComponent(session.id)}/events?after=${after}`;
  follower = followLiveEvents(url, {
    headers: () => headers({}, session),
    onEvent: (name, data, id) => handle(name, data, id, announce),
    onRefused: () => stopFollowing(),
  });
}

export function stopFollowing() {
  follower?.stop();
  follower = undefined;
  shown.clear();
  setAnswering(undefined);
}
