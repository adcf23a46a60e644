import { followLiveEvents } from '../assets/live-events.js';
import { webStorage } from '../assets/web-storage.js';

// sessionStorage: an operator's token lives only as long as this tab.
const TOKEN_KEY = 'helpdesk.operator-token';
const tokens = webStorage('sessionStorage');
const $ = (id) => document.getElementById(id);

/** The queue by session id, the conversation open, and the live events seen per conversation. */
let queue = new Map();
let open;
const shown = new Set();
const received = new Map();
let follower;

class Refused extends Error {}

const authHeaders = () => {
  const token = tokens.getItem(TOKEN_KEY);
  return token ? { authorization: `Bearer ${token}` } : {};
};

/** Every text is written with textContent: nothing a customer or operator types is parsed as HTML. */
function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function askForToken(reason) {
  follower?.stop();
  follower = undefined;
  $('token-reason').textContent = reason;
  $('token-form').hidden = false;
  $('console').hidden = true;
  $('live-status').textContent = 'Signed out';
  $('token-input').focus();
}

function showFailure(text) {
  $('failure').textContent = text ?? '';
  $('failure').hidden = !text;
}

async function api(path, options = {}) {
  const response = await fetch(`../${path}`, {
    ...options,
    headers: {
      ...authHeaders(),
      accept: 'application/json',
      ...(options.body ? { 'content-type': 'application/json' } : {}),
    },
  });
  if (response.status === 401 || response.status === 403) {
    askForToken(
      response.status === 401
        ? "The console needs an operator's token."
        : 'This token is not an operator’s. Use an operator’s token.',
    );
    throw new Refused();
  }
  if (!response.ok) {
    const problem = await response.json().catch(() => ({}));
    throw new Error(problem.detail ?? `The service answered ${response.status}.`);
  }
  return response.status === 204 ? undefined : response.json();
}

const since = (iso) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

function renderQueue() {
  const list = $('queue');
  list.replaceChildren();
  for (const entry of queue.values()) {
    const item = element('li', 'queue-item');
    item.dataset.sessionId = entry.session_id;
    if (open?.session_id === entry.session_id) item.setAttribute('aria-current', 'true');
    const button = element('button');
    button.type = 'button';
    const state = element(
      'span',
      'state',
      entry.state === 'taken' ? `Held by ${entry.operator}` : 'Waiting',
    );
    state.dataset.state = entry.state;
    button.append(
      state,
      element('p', 'summary-line', entry.summary),
      element(
        'p',
        'meta',
        `${entry.ticket_id ?? 'No ticket'} · asked at ${since(entry.requested_at)}` +
          (entry.wait_notified_at ? ' · told to wait' : ''),
      ),
    );
    button.addEventListener('click', () => void openConversation(entry.session_id));
    item.append(button);
    list.append(item);
  }
  $('queue-empty').hidden = queue.size > 0;
}

async function loadQueue() {
  const { conversations, cursor } = await api('operator/conversations');
  queue = new Map(conversations.map((entry) => [entry.session_id, entry]));
  renderQueue();
  return cursor;
}

function addMessage(role, who, text) {
  const item = element('li', `message ${role}`);
  item.append(element('p', 'who', who), element('p', 'text', text));
  $('messages').append(item);
  $('messages').scrollTop = $('messages').scrollHeight;
}

function addNotice(text) {
  const item = element('li', 'message notice');
  item.append(element('p', 'text', text));
  $('messages').append(item);
}

function showMessageEvent(event) {
  if (shown.has(event.id)) return;
  shown.add(event.id);
  if (event.name === 'customer_message') addMessage('user', 'Customer', event.data.text);
  else addMessage('operator', `${event.data.operator} (operator)`, event.data.text);
}

function renderControls() {
  const entry = open?.entry;
  $('take-over').hidden = !entry || entry.state !== 'waiting';
  $('hand-back').hidden = !entry || entry.state !== 'taken';
  $('composer').hidden = !entry || entry.state !== 'taken';
  $('summary').hidden = !entry;
  $('summary').textContent = entry
    ? `${entry.state === 'taken' ? `Held by ${entry.operator}` : 'Waiting for a person'} · ${entry.summary}`
    : '';
}

async function openConversation(sessionId) {
  showFailure(undefined);
  const conversation = await api(`operator/conversations/${encodeURIComponent(sessionId)}`);
  open = { session_id: sessionId, entry: conversation.entry };
  shown.clear();
  $('messages').replaceChildren();
  $('conversation-title').textContent = `Conversation ${sessionId}`;
  for (const turn of conversation.turns) {
    if (turn.event_id !== undefined) shown.add(turn.event_id);
    if (turn.role === 'user') addMessage('user', 'Customer', turn.text);
    else if (turn.role === 'operator')
      addMessage('operator', `${turn.operator} (operator)`, turn.text);
    else addMessage('assistant', `Assistant (${turn.agent})`, turn.text);
  }
  // Messages that came live before the transcript was read, and are not in it yet.
  for (const event of received.get(sessionId) ?? []) {
    if (event.id > conversation.cursor) showMessageEvent(event);
  }
  renderControls();
  renderQueue();
}

async function refreshOpen() {
  if (!open) return;
  open.entry = queue.get(open.session_id) ?? null;
  renderControls();
}

function onLiveEvent(name, data, id) {
  const event = { name, data, id };
  if (name === 'customer_message' || name === 'operator_message') {
    const list = received.get(data.session_id) ?? [];
    list.push(event);
    received.set(data.session_id, list.slice(-200));
    if (open?.session_id === data.session_id) showMessageEvent(event);
    return;
  }
  if (open?.session_id === data.session_id) {
    if (name === 'taken_over') addNotice(`${data.operator} took the conversation over.`);
    if (name === 'handed_back') addNotice(`${data.operator} handed it back to the assistant.`);
    if (name === 'wait_timeout') addNotice('The customer was told nobody is free yet.');
  }
  void loadQueue()
    .then(refreshOpen)
    .catch(() => undefined);
}

async function start() {
  $('token-form').hidden = true;
  $('console').hidden = false;
  try {
    const cursor = await loadQueue();
    follower?.stop();
    follower = followLiveEvents(`../operator/events?after=${cursor}`, {
      headers: authHeaders,
      onEvent: onLiveEvent,
      onStatus: (status) => {
        $('live-status').textContent = status === 'live' ? 'Live' : 'Reconnecting…';
        // Back after a drop: what changed meanwhile in the queue is read again.
        if (status === 'live')
          void loadQueue()
            .then(refreshOpen)
            .catch(() => undefined);
      },
      onRefused: () => askForToken("The console needs an operator's token."),
    });
  } catch (error) {
    if (!(error instanceof Refused)) showFailure(error.message);
  }
}

async function act(path, body) {
  showFailure(undefined);
  try {
    const answer = await api(path, { method: 'POST', body: JSON.stringify(body ?? {}) });
    await loadQueue();
    return answer;
  } catch (error) {
    if (!(error instanceof Refused)) showFailure(error.message);
    return undefined;
  }
}

$('take-over').addEventListener('click', async () => {
  if (!open) return;
  const entry = await act(`operator/conversations/${encodeURIComponent(open.session_id)}/takeover`);
  if (entry) {
    open.entry = entry;
    renderControls();
    $('reply').focus();
  }
});

$('hand-back').addEventListener('click', async () => {
  if (!open) return;
  await act(`operator/conversations/${encodeURIComponent(open.session_id)}/handback`);
  open.entry = queue.get(open.session_id) ?? null;
  renderControls();
});

$('composer').addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = $('reply').value.trim();
  if (!open || !text) return;
  $('send').disabled = true;
  const sent = await act(`operator/conversations/${encodeURIComponent(open.session_id)}/messages`, {
    text,
  });
  $('send').disabled = false;
  if (sent) $('reply').value = '';
});

$('reply').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    $('composer').requestSubmit();
  }
});

$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  tokens.setItem(TOKEN_KEY, $('token-input').value.trim());
  $('token-input').value = '';
  void start();
});

void start();
