/* global URLSearchParams, location */
import {
  ApiError,
  forgetToken,
  readConversation,
  readTranscript,
  startConversation,
  storeToken,
} from './api.js';
import { addReply, addUserMessage, clearMessages, showTranscript } from './conversation-view.js';
import { streamTurn } from './event-stream.js';
import { followConversation, rememberShown, stopFollowing } from './live-conversation.js';
import { forgetSession, rememberSession, storedSession } from './session.js';
import { agentLabel, toolCallLine } from './status-lines.js';

const $ = (id) => document.getElementById(id);
const DROP_RECHECK_MS = 1_000;
const DROP_WAIT_MS = 120_000;

/** The conversation, `{ id, token }`: undefined until the first message starts one. */
let session = storedSession();
let busy = false;
/** The message of the last failed turn: what Retry sends again. */
let failedMessage;
/** The conversation could not be read: what Retry does when no message failed. */
let loadFailed = false;

function announce(text) {
  $('announcer').textContent = text;
}

function setBusy(value) {
  busy = value;
  $('send').disabled = value;
  $('messages').setAttribute('aria-busy', String(value));
}

function showFailure(text) {
  $('failure-text').textContent = text;
  $('failure').hidden = false;
}

function hideFailure() {
  $('failure').hidden = true;
  failedMessage = undefined;
  loadFailed = false;
}

/** A plain sentence for what went wrong; never the service's internals. */
function failureText(error) {
  if (error instanceof ApiError && error.status === 429) {
    return 'Too many messages right now. Please wait a moment, then retry.';
  }
  if (error?.ticket_id) {
    return `Something went wrong while answering, but ticket ${error.ticket_id} was opened. You can retry.`;
  }
  return 'Sorry, the help desk could not answer just now. Please retry.';
}

function askForToken(reason) {
  $('token-reason').textContent = reason;
  $('token-form').hidden = false;
  $('token-input').focus();
}

/** The service starts the conversation (its id and secret) when the first message needs one. */
async function ensureSession() {
  if (session) return;
  session = await startConversation();
  rememberSession(session);
  followConversation(session, 0, announce);
}

function dropSession() {
  stopFollowing();
  forgetSession();
  session = undefined;
}

/** Turns in the transcript after `known` that answer `message`, once the service has recorded them. */
async function recordedAnswer(message, known) {
  const turns = (await readTranscript(session)) ?? [];
  const [asked, answered] = turns.slice(known);
  return asked?.text === message && answered?.role === 'assistant' ? answered : undefined;
}

/**
 * The connection broke before the turn ended. A turn the service had started goes on without us,
 * so it is read from the session when it is recorded, never sent again; a message that may never
 * have arrived is checked for in the session and sent once more only if it is not there.
 */
async function recoverDroppedTurn(message, known, opened, reply) {
  const deadline = Date.now() + (opened ? DROP_WAIT_MS : DROP_RECHECK_MS);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, DROP_RECHECK_MS));
    const answered = await recordedAnswer(message, known).catch(() => undefined);
    if (answered) {
      reply.finish({
        reply: answered.text,
        agent: answered.agent,
        ticket_id: answered.ticket_id,
        sources: answered.sources,
      });
      announce(`${agentLabel(answered.agent)}: ${answered.text}`);
      return 'shown';
    }
    if (Date.now() > deadline) return opened ? 'lost' : 'resend';
  }
}

async function runTurn(message, reply, known, attempt = 1) {
  let outcome;
  try {
    outcome = await streamTurn(session, message, (name, data) => {
      if (name === 'agent') {
        reply.setAgent(data.agent);
        announce(`${agentLabel(data.agent)} is answering.`);
      } else if (name === 'tool_call') {
        reply.setStatus(toolCallLine(data.name, data.args));
      } else if (name === 'tool_result') {
        // The status line stays until the answer's text begins: the model is still at work.
        if (data.ticket_id) reply.setTicket(data.ticket_id);
      } else if (name === 'delta') {
        reply.setStatus(undefined);
        reply.append(data.text);
      }
    });
  } catch (error) {
    if (!error?.dropped) throw error;
    const next = await recoverDroppedTurn(message, known, error.opened, reply);
    if (next === 'shown') return;
    if (next === 'resend' && attempt === 1) {
      reply.setStatus('Reconnecting…');
      return runTurn(message, reply, known, 2);
    }
    throw new ApiError(0, 'connection_lost', 'The connection was lost.');
  }
  if (outcome.outcome === 'error') throw Object.assign(new Error('turn failed'), outcome.data);
  if (outcome.data.mode === 'human') {
    // A person holds the conversation: the message went to them; their answer comes live.
    reply.remove();
    announce(`Sent to ${outcome.data.operator}.`);
    return;
  }
  reply.finish(outcome.data);
  announce(`${agentLabel(outcome.data.agent)}: ${outcome.data.reply}`);
}

/**
 * Sends the message in this conversation, or in a new one when the service no longer has it
 * (expired or deleted: 404 session_not_found); nothing of it was recorded then.
 */
async function sendInSession(message, reply, known) {
  try {
    await ensureSession();
    await runTurn(message, reply, known);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'session_not_found')) throw error;
    dropSession();
    await ensureSession();
    await runTurn(message, reply, 0);
  }
}

async function send(message, { retry = false } = {}) {
  if (busy) return;
  setBusy(true);
  hideFailure();
  if (!retry) addUserMessage(message);
  const known = $('messages').children.length - 1;
  const reply = addReply();
  try {
    await sendInSession(message, reply, known);
  } catch (error) {
    reply.remove();
    if (error instanceof ApiError && error.status === 401) {
      forgetToken();
      failedMessage = message;
      askForToken('This help desk needs an access token to answer.');
    } else {
      failedMessage = message;
      showFailure(failureText(error));
      if (error?.ticket_id) announce(`Ticket ${error.ticket_id} was opened.`);
    }
  } finally {
    setBusy(false);
  }
}

async function loadConversation() {
  if (!session) return;
  try {
    const conversation = await readConversation(session);
    // Gone (expired or deleted): the next message starts another conversation.
    if (!conversation) return dropSession();
    showTranscript(conversation.turns);
    rememberShown(conversation.turns);
    followConversation(session, conversation.events_cursor, announce);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      forgetToken();
      askForToken('This help desk needs an access token.');
    } else {
      showFailure('The conversation could not be loaded. Please retry.');
      loadFailed = true;
    }
  }
}

$('composer').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('message');
  const message = input.value.trim();
  if (!message || busy) return;
  input.value = '';
  void send(message);
});

$('message').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    $('composer').requestSubmit();
  }
});

$('retry').addEventListener('click', () => {
  if (failedMessage !== undefined) void send(failedMessage, { retry: true });
  else if (loadFailed) {
    hideFailure();
    void loadConversation();
  }
  $('message').focus();
});

$('new-conversation').addEventListener('click', () => {
  if (busy) return;
  dropSession();
  hideFailure();
  clearMessages();
  announce('New conversation started.');
  $('message').focus();
});

$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  storeToken($('token-input').value.trim());
  $('token-input').value = '';
  $('token-form').hidden = true;
  const pending = failedMessage;
  failedMessage = undefined;
  $('message').focus();
  // A message refused for want of a token is still on screen: send it; otherwise read the conversation.
  if (pending !== undefined) void send(pending, { retry: true });
  else void loadConversation();
});

if (new URLSearchParams(location.search).has('embed')) document.body.classList.add('embedded');
void loadConversation();
