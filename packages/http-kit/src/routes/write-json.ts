import type { Response } from 'express';

/**
 * A JSON answer as `res.json` writes it (same body, `Content-Type` and `Content-Length`), without
 * the ETag Express computes by hashing the body: only a GET's answer can be conditional, so a
 * POST's ETag is work nobody reads. For the answers of busy POST routes.
 */
export function writeJson(res: Response, body: unknown): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}
