import { fileURLToPath } from 'node:url';
import type { Express } from 'express';
import { chatPageCsp, pageAssets } from '../web/chat-page.js';

// The same relative path reaches web/operator/ from src/operator (jest) and dist/operator.
const consoleRoot = fileURLToPath(new URL('../../web/operator/', import.meta.url));

/** The console's page and assets: open, like the chat page (it asks for an operator's token). */
export const CONSOLE_PATHS = ['/console', '/console/'];

/** Serves the operator console (web/operator/ at /console/): its own scripts only, never framed. */
export function consolePage() {
  const assets = pageAssets(consoleRoot, chatPageCsp(["'none'"]), 'index.html');
  return (app: Express) => {
    // The page's relative URLs need the trailing slash; Express matches /console/ here too.
    app.get('/console', (req, res, next) => {
      if (req.originalUrl.split('?')[0] !== '/console') return next();
      res.redirect(301, '/console/');
    });
    app.use('/console/', assets);
  };
}
