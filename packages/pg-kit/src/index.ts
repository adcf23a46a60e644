export { databaseEnv } from './database-env.js';
export { openPools, type PoolOptions, type PoolLimits, type Pools } from './pools.js';
export { DatabaseHealth } from './database-health.js';
export { GuardedPool, type PoolGuard } from './guarded-pool.js';
export { DatabaseUnavailable, isDatabaseUnreachable } from './database-unavailable.js';
export { setUpWithRetry, type SetUpRetry } from './set-up-with-retry.js';
export { exitDatabaseUnreachable, type StartupDatabase } from './exit-database-unreachable.js';
export { withTransaction } from './with-transaction.js';
