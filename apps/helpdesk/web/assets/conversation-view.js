import { agentLabel } from './status-lines.js';

/** Every message is written as text (textContent), never parsed as HTML. */
function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const list = () => document.getElementById('messages');

function showList() {
  document.getElementById('empty').hidden = list().children.length > 0;
}

function scrollToEnd() {
  const conversation = document.getElementById('conversation');
  conversation.scrollTop = conversation.scrollHeight;
}

export function clearMessages() {
  list().replaceChildren();
  showList();
}

export function addUserMessage(text) {
  const item = element('li', 'message user');
  item.append(element('p', 'who', 'You'), element('p', 'text', text));
  list().append(item);
  showList();
  scrollToEnd();
  return item;
}

/** An answer: who answers, a status line while a tool runs, the text as it grows, a ticket. */
export function addReply(agent) {
  const item = element('li', 'message assistant');
  const who = element('p', 'who', agent ? agentLabel(agent) : 'Help desk');
  const status = element('p', 'status-line');
  status.hidden = true;
  const text = element('p', 'text');
  const ticket = element('p', 'ticket');
  ticket.hidden = true;
  const sources = element('div', 'sources');
  sources.hidden = true;
  item.append(who, status, text, ticket, sources);
  item.dataset.state = 'streaming';
  list().append(item);
  showList();
  scrollToEnd();
  return {
    item,
    setAgent(name) {
      item.dataset.agent = name;
      who.textContent = agentLabel(name);
    },
    setStatus(line) {
      status.textContent = line ?? '';
      status.hidden = !line;
    },
    append(piece) {
      text.append(document.createTextNode(piece));
      scrollToEnd();
    },
    finish(reply) {
      text.textContent = reply.reply;
      if (reply.agent) this.setAgent(reply.agent);
      if (reply.ticket_id) this.setTicket(reply.ticket_id);
      this.setSources(reply.sources);
      this.setStatus(undefined);
      item.dataset.state = 'done';
      scrollToEnd();
    },
    setTicket(ticketId) {
      ticket.replaceChildren(
        element('span', 'ticket-label', 'Ticket '),
        element('strong', 'ticket-id', ticketId),
        element('span', '', ' opened: a colleague will contact you.'),
      );
      ticket.dataset.ticketId = ticketId;
      ticket.hidden = false;
    },
    /**
     * The help center articles the answer cites: each title opens the passages the answer read.
     * An article is the company's own text, but it is shown as text too, never as HTML or links.
     */
    setSources(cited = []) {
      sources.replaceChildren();
      sources.hidden = cited.length === 0;
      if (cited.length === 0) return;
      sources.append(element('p', 'sources-label', 'Sources'));
      for (const source of cited) {
        const details = element('details', 'source');
        details.dataset.slug = source.slug;
        details.append(
          element('summary', 'source-title', source.title),
          element('p', 'source-text', source.text),
        );
        sources.append(details);
      }
    },
    remove() {
      item.remove();
      showList();
    },
  };
}

/** A person's message (they took the conversation over), named as they are. */
export function addOperatorMessage(text, operator) {
  const item = element('li', 'message operator');
  item.append(element('p', 'who', `${operator} (a person)`), element('p', 'text', text));
  list().append(item);
  showList();
  scrollToEnd();
  return item;
}

/** A line from the service about the conversation (a person joined, nobody free yet…). */
export function addNotice(text) {
  const item = element('li', 'message notice');
  item.append(element('p', 'text', text));
  list().append(item);
  showList();
  scrollToEnd();
  return item;
}

/** The transcript as GET /sessions/{id} has it. */
export function showTranscript(turns) {
  clearMessages();
  for (const turn of turns) {
    if (turn.role === 'user') addUserMessage(turn.text);
    else if (turn.role === 'operator') addOperatorMessage(turn.text, turn.operator ?? 'Support');
    else
      addReply(turn.agent).finish({
        reply: turn.text,
        agent: turn.agent,
        ticket_id: turn.ticket_id,
        sources: turn.sources,
      });
  }
}
