import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A client's request id is kept only when it is short and plain; otherwise a fresh one is made. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
}
