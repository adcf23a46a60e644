import { Router, type Request } from 'express';
import { HttpError } from './errors/http-error.js';

/**
 * One thing a service needs before it serves (its database, its help center's first load), or
 * whose state it reports (its mailbox). `/readyz` answers each check's state under its name.
 */
export interface ReadinessCheck {
  /** The key of its state in `/readyz`'s body, e.g. `database`, `mailbox`, `help_center`. */
  name: string;
  /**
   * Returns the state when it serves (default `ok`). Throws when it does not: NotReady names the
   * state (`loading`); a 503 HttpError's code is the state (`database_unavailable`); anything else
   * is `failed`, with one warning.
   */
  check(): Promise<string | void> | string | void;
}

/** A check's known way of not serving yet: `state` is what `/readyz` answers for it. */
export class NotReady extends Error {
  constructor(readonly state: string) {
    super(`not ready: ${state}`);
    this.name = 'NotReady';
  }
}

/**
 * The most a check may take: `/readyz` answers within 2 s even when a dependency hangs (a frozen
 * database), the check's state then `timeout`.
 */
export const READINESS_TIMEOUT_MS = 1_800;

/** The body's own keys: no check may be named after one. */
const RESERVED_NAMES = new Set(['status', 'type', 'title', 'detail', 'code', 'instance']);

/** Refuses two checks of one name, or one named after a key the body has already. */
function assertCheckNames(checks: readonly ReadinessCheck[]): void {
  const names = new Set<string>();
  for (const { name } of checks) {
    if (RESERVED_NAMES.has(name) || names.has(name))
      throw new Error(`readiness check name ${JSON.stringify(name)} is reserved or repeated`);
    names.add(name);
  }
}

type Outcome = { state: string; ready: boolean };

/** Runs one check within READINESS_TIMEOUT_MS; its failure is logged as known or not. */
async function outcomeOf(req: Request, { name, check }: ReadinessCheck): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NotReady('timeout')), READINESS_TIMEOUT_MS);
  });
  try {
    const state = await Promise.race([Promise.resolve().then(check), timeout]);
    return { state: state ?? 'ok', ready: true };
  } catch (error) {
    // A known state (the database away, a fresh schema still being set up, a load under way) is
    // logged once where it is known (pg-kit's DatabaseHealth); a warning on every poll would repeat it.
    if (error instanceof NotReady) return notReady(req, name, error.state);
    if (error instanceof HttpError && error.status === 503) return notReady(req, name, error.code);
    req.log.warn({ err: error, check: name }, 'readiness check failed');
    return { state: 'failed', ready: false };
  } finally {
    clearTimeout(timer);
  }
}

function notReady(req: Request, name: string, state: string): Outcome {
  req.log.debug({ check: name, problem: state }, 'not ready');
  return { state, ready: false };
}

/**
 * `/healthz`: the process answers. `/readyz`: every check passes (run together, each bounded);
 * 200 `{ status: 'ready', <name>: <state>, … }`, else 503 `not_ready` with the same states.
 */
export function healthRoutes(checks: readonly ReadinessCheck[] = []): Router {
  assertCheckNames(checks);
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (req, res) => {
    const outcomes = await Promise.all(checks.map((check) => outcomeOf(req, check)));
    const states = Object.fromEntries(checks.map(({ name }, i) => [name, outcomes[i]!.state]));
    const failing = checks.filter((_, i) => !outcomes[i]!.ready);
    if (failing.length > 0) {
      const named = failing.map(({ name }) => `${name} (${states[name]})`).join(', ');
      throw new HttpError(503, 'not_ready', `Not ready: ${named}.`, { extra: states });
    }
    res.json({ status: 'ready', ...states });
  });
  return router;
}
