import { fileURLToPath } from 'node:url';
import express, { type Express, type Response } from 'express';

// The same relative path reaches the repo's web/ folder from src/web (jest) and dist/web (runtime).
const webRoot = fileURLToPath(new URL('../../web/', import.meta.url));

/** The page never needs inline script or style, third-party origins, or to be framed. */
export const REVIEW_INBOX_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/**
 * The page's paths, exempt from bearer auth (the page asks for the token itself). Not `/`: http-kit
 * reads a trailing `/` as a prefix, which would open every route; `/` is answered before auth runs.
 */
export const REVIEW_INBOX_PATHS = ['/index.html', '/assets/'];

function securityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', REVIEW_INBOX_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  // Unversioned file names: let the browser cache, but revalidate (ETag) on every load.
  res.setHeader('Cache-Control', 'no-cache');
}

/** Serves the review inbox (web/index.html at `/`, web/assets/ at `/assets/`), for createHttpApp's `configure`. */
export function reviewInbox(): (app: Express) => void {
  const assets = express.static(`${webRoot}assets`, {
    fallthrough: true,
    index: false,
    redirect: false,
    setHeaders: securityHeaders,
  });
  return (app) => {
    app.get(['/', '/index.html'], (_req, res) => {
      securityHeaders(res);
      res.sendFile('index.html', { root: webRoot });
    });
    app.use('/assets', assets);
  };
}
