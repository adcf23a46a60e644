import type pg from 'pg';
import { OneRowPostgresSaver } from '../patches/langgraph-checkpoint-postgres-one-row-checkpoints.js';

/**
 * LangGraph's PostgreSQL checkpointer, its tables in `schema`, a checkpoint in one row (the patch
 * in src/patches/): on the pool, or on one transaction's client, whose transaction its writes join.
 */
export function createCheckpointer(db: pg.Pool | pg.PoolClient, schema: string) {
  return new OneRowPostgresSaver(db, schema);
}
