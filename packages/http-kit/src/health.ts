import { Router } from 'express';
import { HttpError } from './errors/http-error.js';

/** Throws when not ready; may return details (e.g. `{ mailbox: 'connected' }`) for the answer. */
export type ReadinessCheck = () =>
  Promise<void | Record<string, string>> | void | Record<string, string>;

/** `/healthz`: the process answers. `/readyz`: its dependencies (e.g. the database) answer too. */
export function healthRoutes(readiness?: ReadinessCheck): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (req, res) => {
    let details: void | Record<string, string>;
    try {
      details = await readiness?.();
    } catch (error) {
      // A known 503 (the database away, or a fresh schema still being set up) is logged once where
      // it is known (pg-kit's DatabaseHealth); a warning and a stack on every poll would repeat it.
      if (error instanceof HttpError && error.status === 503)
        req.log.debug({ problem: error.code }, 'not ready');
      else req.log.warn({ err: error }, 'readiness check failed');
      throw new HttpError(503, 'not_ready', 'A dependency of this service is not available.');
    }
    res.json({ ...details, status: 'ready' });
  });
  return router;
}
