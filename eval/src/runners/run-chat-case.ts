import { createParser } from 'eventsource-parser';
import { userText, type ChatCase } from '../datasets/schema.js';

/** A help center passage an answer drew on, as helpdesk reports it (`sources` in `done`). */
export interface Source {
  slug: string;
  text: string;
}

/** What helpdesk did with one turn, as its event stream shows it. */
export interface TurnOutcome {
  /** The agent that answered (`done.agent`). */
  agent: string | null;
  /** Every agent the turn passed through, in order (`agent` events). */
  agents: string[];
  tool_calls: Array<{ name: string; args: Record<string, unknown> }>;
  reply: string | null;
  ticket_id: string | null;
  sources: Source[] | undefined;
  error: string | null;
  latency_ms: number;
}

export interface ChatOutcome {
  id: string;
  turns: TurnOutcome[];
}

interface DoneEvent {
  agent?: string;
  reply?: string;
  ticket_id?: string;
  sources?: Source[];
}

/** Plays the conversation turn by turn over `POST /chat` with `Accept: text/event-stream`. */
export async function runChatCase(
  baseUrl: string,
  testCase: ChatCase,
  runId: string,
): Promise<ChatOutcome> {
  const sessionId = `eval-${runId}-${testCase.eval_id}`.slice(0, 128);
  const turns: TurnOutcome[] = [];
  for (const turn of testCase.conversation) {
    turns.push(await runTurn(baseUrl, sessionId, userText(turn)));
  }
  return { id: testCase.eval_id, turns };
}

async function runTurn(baseUrl: string, sessionId: string, message: string): Promise<TurnOutcome> {
  const started = performance.now();
  const outcome: TurnOutcome = {
    agent: null,
    agents: [],
    tool_calls: [],
    reply: null,
    ticket_id: null,
    sources: undefined,
    error: null,
    latency_ms: 0,
  };
  const res = await fetch(`${baseUrl}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ session_id: sessionId, message }),
  });
  const body = await res.text();
  if (!res.ok || !(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const problem = JSON.parse(body || '{}') as { code?: string };
    outcome.error = `POST /chat answered ${res.status} ${problem.code ?? ''}`.trim();
  } else {
    const parser = createParser({
      onEvent: (event) => {
        const data = JSON.parse(event.data) as Record<string, unknown>;
        if (event.event === 'agent') outcome.agents.push(String(data.agent));
        else if (event.event === 'tool_call')
          outcome.tool_calls.push({
            name: String(data.name),
            args: (data.args ?? {}) as Record<string, unknown>,
          });
        else if (event.event === 'tool_result' && typeof data.ticket_id === 'string')
          outcome.ticket_id = data.ticket_id;
        else if (event.event === 'done') {
          const done = data as DoneEvent;
          outcome.agent = done.agent ?? null;
          outcome.reply = done.reply ?? null;
          outcome.ticket_id = done.ticket_id ?? outcome.ticket_id;
          outcome.sources = done.sources;
        } else if (event.event === 'error') outcome.error = String(data.code ?? 'error');
      },
    });
    parser.feed(body);
    if (!outcome.reply && !outcome.error) outcome.error = 'no done event';
  }
  outcome.latency_ms = Math.round(performance.now() - started);
  return outcome;
}
