import { DatabaseHealth, DatabaseUnavailable } from '@repo/pg-kit';
import type pg from 'pg';

type Query = (...args: unknown[]) => unknown;

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Routes every promise-returning call on `pool` (and on the clients it hands out) through `health`,
 * so that a database that cannot be reached answers 503 `database_unavailable` with Retry-After
 * wherever it is met (thread index, checkpointer, leases), and the outage is logged once when it
 * starts and once when it ends. Until `isReady()` (the schema is set up) every call is refused the
 * same way. Callback-style calls pass through untouched. A client whose query found the database
 * away (or whose connection dropped while checked out) is destroyed on release rather than handed
 * out again.
 */
export function guardPool(pool: pg.Pool, health: DatabaseHealth, isReady: () => boolean): void {
  const guarded = <T>(step: () => Promise<T>): Promise<T> =>
    isReady() ? health.guard(step) : Promise.reject(new DatabaseUnavailable());
  const query = pool.query.bind(pool) as Query;
  pool.query = ((...args: unknown[]) => {
    if (typeof args[args.length - 1] === 'function') return query(...args);
    return guarded(() => query(...args) as Promise<unknown>);
  }) as typeof pool.query;
  const connect = pool.connect.bind(pool) as Query;
  pool.connect = ((...args: unknown[]) => {
    if (args.length > 0) return connect(...args);
    return guarded(() => connect() as Promise<pg.PoolClient>).then((client) =>
      guardClient(client, health),
    );
  }) as typeof pool.connect;
}

/** Per pooled connection: whether the current checkout found the database away. */
interface ClientState {
  broken: boolean;
}

/** The pool's connections whose `query` is already guarded (pg-pool hands the same ones out again). */
const guardedClients = new WeakMap<pg.PoolClient, ClientState>();

/**
 * Guards a client the pool just handed out. Its `query` is wrapped once per connection, not per
 * checkout: pg-pool keeps the client object across checkouts, so wrapping on each would stack one
 * more wrapper per checkout, and every query would walk them all. `release` is wrapped on every
 * checkout, as pg-pool sets a new one each time.
 */
function guardClient(client: pg.PoolClient, health: DatabaseHealth): pg.PoolClient {
  let state = guardedClients.get(client);
  if (!state) {
    const fresh: ClientState = { broken: false };
    state = fresh;
    guardedClients.set(client, fresh);
    const query = client.query.bind(client) as Query;
    client.query = ((...args: unknown[]) => {
      const result = query(...args);
      if (!isPromise(result)) return result;
      return health
        .guard(() => result)
        .catch((error: unknown) => {
          if (error instanceof DatabaseUnavailable) fresh.broken = true;
          throw error;
        });
    }) as typeof client.query;
  }
  const checkout = state;
  checkout.broken = false;
  // A checked-out client has no pool listener: a connection the server drops between two of its
  // queries would otherwise emit an unhandled 'error' and end the process.
  const onError = (error: Error) => {
    checkout.broken = true;
    health.markDown(error);
  };
  client.on('error', onError);
  const release = client.release.bind(client);
  client.release = (error?: Error | boolean) => {
    client.off('error', onError);
    return release(error ?? (checkout.broken ? true : undefined));
  };
  return client;
}
