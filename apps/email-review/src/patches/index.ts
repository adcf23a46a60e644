import type { FrameworkPatch } from '@repo/http-kit';

/**
 * Every place this app reaches into a framework's internals, one file each in this folder. When a
 * library's version changes, re-check the patch against it, then update `version` here.
 * Paths are relative to the repository root.
 */

export const FRAMEWORK_PATCHES: FrameworkPatch[] = [
  {
    id: 'langgraph-checkpoint-postgres-one-statement-writes',
    library: '@langchain/langgraph-checkpoint-postgres',
    version: '1.0.5',
    file: 'apps/email-review/src/patches/langgraph-checkpoint-postgres-one-statement-writes.ts',
    touches:
      'PostgresSaver#put and #putWrites (overridden), through the protected _dumpBlobs, _dumpMetadata, _dumpCheckpoint and _dumpWrites helpers and the column positions of the rows they return',
    gain: 'bench scenario 5: +18.0 % lifecycles/s at concurrency 8 (127.9 vs 108.3, graph on the PostgreSQL checkpointer)',
    guardedBy: 'apps/email-review/test/framework-patches.test.ts',
  },
  {
    id: 'pg-named-statements',
    library: 'pg',
    version: '8.23.1',
    file: 'apps/email-review/src/patches/pg-named-statements.ts',
    touches:
      'pg.Pool#query, replaced on the pool instance: parameterised text queries become named prepared statements',
    gain: 'bench scenario 5: +18.4 % lifecycles/s at concurrency 8 (127.9 vs 108.0, graph on the PostgreSQL checkpointer)',
    guardedBy: 'apps/email-review/test/framework-patches.test.ts',
  },
];
