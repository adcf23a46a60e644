import { PROM_CLIENT_DEFAULT_METRICS_PATCH, type FrameworkPatch } from '@repo/http-kit';

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
    gain: 'bench scenario 5: +75.0 % lifecycles/s at concurrency 8 (89.8 vs 51.3, graph on the PostgreSQL checkpointer; quiet full run of 2026-11-24)',
    guardedBy: 'apps/email-review/test/framework-patches.test.ts',
  },
  // http-kit's, in both services' /metrics: Node's default metrics without the GC observer.
  PROM_CLIENT_DEFAULT_METRICS_PATCH,
];
