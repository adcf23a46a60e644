import pg from 'pg';
import type { DatabaseHealth } from './database-health.js';
import { DatabaseUnavailable } from './database-unavailable.js';

export interface PoolGuard {
  /** Where an outage is logged, once when it starts and once when it ends. */
  health: DatabaseHealth;
  /** Until true (the schema is set up), every query and checkout is refused as DatabaseUnavailable. */
  isReady?: () => boolean;
}

type Call = (this: unknown, ...args: unknown[]) => unknown;

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

/** `Base` (pg's Client or PreparingClient) whose promised queries go through `health`. */
function guardedClient(Base: typeof pg.Client, health: DatabaseHealth): typeof pg.Client {
  class GuardedClient extends Base {}
  GuardedClient.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    // Looked up at each call, as instrumentation (OpenTelemetry's pg) wraps pg's once tracing starts.
    const result = (Base.prototype.query as Call).apply(this, args);
    // Callback-style calls (pg-pool's own) and query objects pass as they come.
    if (!isPromise(result)) return result;
    return health
      .guard(() => result)
      .catch((error: unknown) => {
        // A connection that found the database away (dropped, or frozen past the query timeout) is
        // closed at once, and pg-pool destroys a closed client on release instead of pooling it.
        if (error instanceof DatabaseUnavailable) void this.end();
        throw error;
      });
  } as typeof pg.Client.prototype.query;
  return GuardedClient;
}

/**
 * Tells `health` of a connection the server dropped. An idle one is replaced by the pool; one
 * dropped while checked out (a restart, a failover, pg_terminate_backend) emits 'error' on its
 * client, which pg-pool stops listening to at checkout: with no listener, the process would end.
 * Its query in flight fails with it, and pg-pool destroys it on release (pg marks it unqueryable).
 */
export function survivingDroppedConnections(pool: pg.Pool, health: DatabaseHealth): void {
  const markDown = (error: Error) => health.markDown(error);
  pool.on('error', markDown);
  pool.on('connect', (client) => client.on('error', markDown));
}

/**
 * pg's Pool, whose promised queries and checkouts (and the queries of the clients it hands out)
 * fail as DatabaseUnavailable (503 `database_unavailable`, Retry-After) while the database cannot
 * be reached, and until `isReady()`. No method of pg's is replaced: this is a subclass, and its
 * clients are a subclass passed through pg-pool's `Client` option. What it leans on in pg-pool: the
 * register, packages/http-kit/src/framework-patches.ts (`pg-pool-outage-guard`).
 */
export class GuardedPool extends pg.Pool {
  constructor(
    config: Omit<pg.PoolConfig, 'Client'> & { Client?: typeof pg.Client },
    readonly guard: PoolGuard,
  ) {
    super({ ...config, Client: guardedClient(config.Client ?? pg.Client, guard.health) });
    survivingDroppedConnections(this, guard.health);
  }

  /** Runs one of this pool's steps: refused until ready; "unreachable" → DatabaseUnavailable. */
  guarded<T>(step: () => Promise<T>): Promise<T> {
    const { health, isReady } = this.guard;
    if (isReady && !isReady()) return Promise.reject(new DatabaseUnavailable());
    return health.guard(step);
  }
}

// Callback-style calls (pg-pool's query checks out with one) pass as they come.
GuardedPool.prototype.query = function (this: GuardedPool, ...args: unknown[]) {
  const query = () => (pg.Pool.prototype.query as Call).apply(this, args) as Promise<unknown>;
  return typeof args.at(-1) === 'function' ? query() : this.guarded(query);
} as typeof pg.Pool.prototype.query;

GuardedPool.prototype.connect = function (this: GuardedPool, ...args: unknown[]) {
  const connect = () => (pg.Pool.prototype.connect as Call).apply(this, args) as Promise<unknown>;
  return args.length > 0 ? connect() : this.guarded(connect);
} as typeof pg.Pool.prototype.connect;
