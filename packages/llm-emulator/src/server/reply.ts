/** A response decided by a route, sent by the request pipeline once faults and latency have been applied. */
export type Reply =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'sse'; events: unknown[]; done?: boolean };

/** Thrown by route handlers for a malformed request; answered as 400 in the provider's error shape. */
export class BadRequest extends Error {}

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return { kind: 'json', status, body, headers };
}
