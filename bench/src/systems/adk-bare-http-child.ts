import http from 'node:http';
import {
  InMemorySessionService,
  isFinalResponse,
  LogLevel,
  Runner,
  setLogLevel,
  stringifyContent,
} from '@google/adk';
import { createRootAgent } from 'helpdesk';

/**
 * The helpdesk's agent tree on ADK's own Runner and InMemorySessionService behind a bare
 * `node:http` server, in a process of its own: POST /chat `{session_id, message}` answers
 * `{agent, reply}`, the first message of a session creates it; GET /readyz answers 200. What it
 * adds over the in-process framework alone is HTTP between two processes and nothing else, so
 * scenario 3 can tell the transport from the service's own plumbing.
 */
const APP = 'helpdesk';
const USER = 'bench';
setLogLevel(LogLevel.WARN);
const sessions = new InMemorySessionService();
const agent = createRootAgent({
  apiKey: process.env['AGENT_LLM_API_KEY'] ?? 'bench-key',
  model: 'bench-model',
  baseUrl: process.env['AGENT_LLM_BASE_URL'],
  timeoutMs: 30_000,
  maxRetries: 0,
});
const runner = new Runner({ appName: APP, agent, sessionService: sessions });
const known = new Set<string>();

async function chat(sessionId: string, text: string): Promise<{ agent: string; reply: string }> {
  if (!known.has(sessionId)) {
    known.add(sessionId);
    await sessions.createSession({ appName: APP, userId: USER, sessionId });
  }
  let answer = { agent: '', reply: '' };
  const events = runner.runAsync({
    userId: USER,
    sessionId,
    newMessage: { role: 'user', parts: [{ text }] },
  });
  for await (const event of events) {
    if (event.errorCode) throw new Error(`model error ${event.errorCode}: ${event.errorMessage}`);
    const reply =
      event.author !== 'user' && isFinalResponse(event) && stringifyContent(event).trim();
    if (reply) answer = { agent: event.author ?? '', reply };
  }
  return answer;
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/readyz') {
    res.writeHead(200).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      session_id: string;
      message: string;
    };
    chat(body.session_id, body.message).then(
      (answer) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      },
      (error: unknown) => {
        res.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
      },
    );
  });
});
server.listen(Number(process.env['PORT']), '127.0.0.1');
