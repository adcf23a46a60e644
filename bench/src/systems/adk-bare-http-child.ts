import http from 'node:http';
import { InProcessAdkDriver } from '../drivers/in-process-adk-driver.js';

/**
 * The helpdesk's agent tree on ADK's own Runner and InMemorySessionService (the in-process
 * driver's) behind a bare `node:http` server, in a process of its own: POST /chat
 * `{session_id, message}` answers `{agent, reply}`, the first message of a session creates it;
 * GET /readyz answers 200. What it adds over the in-process framework alone is HTTP between two
 * processes and nothing else, so scenario 3 can tell the transport from the service's own plumbing.
 */
const adk = new InProcessAdkDriver(process.env['AGENT_LLM_BASE_URL'] ?? '');
const started = new Set<string>();

async function chat(sessionId: string, text: string): Promise<{ agent: string; reply: string }> {
  if (!started.has(sessionId)) {
    started.add(sessionId);
    await adk.startSession(sessionId);
  }
  return adk.turn(sessionId, text);
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
