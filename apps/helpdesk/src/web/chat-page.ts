import { fileURLToPath } from 'node:url';
import express, { type Express, type RequestHandler, type Response } from 'express';

// The same relative path reaches the package's web/ folder from src/web (jest) and dist/web (runtime).
const webRoot = fileURLToPath(new URL('../../web/', import.meta.url));

/** The chat page's paths, open without a token (the page asks for one when the API needs it). */
export const CHAT_PAGE_PATHS = ['/index.html', '/assets/', '/widget.js'];

/**
 * The page never needs inline script or style, or any origin but its own; who may frame it is
 * `frameAncestors` (WIDGET_ALLOWED_ORIGINS: `*` or a list of origins).
 */
export function chatPageCsp(frameAncestors: readonly string[] | '*'): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    `frame-ancestors ${frameAncestors === '*' ? '*' : frameAncestors.join(' ')}`,
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** The page's (and the operator console's) security and caching headers. */
function pageHeaders(res: Response, csp: string): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('Referrer-Policy', 'no-referrer');
  // Unversioned file names: let the browser cache, but revalidate (ETag) on every load.
  res.setHeader('Cache-Control', 'no-cache');
}

/** The files under `root`, with the page's headers; a directory is never redirected to. */
export const pageAssets = (root: string, csp: string, index: string | false): RequestHandler =>
  express.static(root, { index, redirect: false, setHeaders: (res) => pageHeaders(res, csp) });

/**
 * Serves the customer chat (web/index.html at `/`, web/assets/ at `/assets/`) and the embed script
 * (`/widget.js`, loaded by other sites: readable cross-origin), for createHttpApp's `configure`.
 */
export function chatPage(options: { frameAncestors: readonly string[] | '*' }) {
  const csp = chatPageCsp(options.frameAncestors);
  const assets = pageAssets(`${webRoot}assets`, csp, false);
  return (app: Express) => {
    app.get(['/', '/index.html'], (_req, res) => {
      pageHeaders(res, csp);
      res.sendFile('index.html', { root: webRoot });
    });
    app.use('/assets', assets);
    app.get('/widget.js', (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.type('text/javascript');
      res.sendFile('widget.js', { root: webRoot });
    });
  };
}
