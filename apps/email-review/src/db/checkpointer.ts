import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type pg from 'pg';
import { OneRowPostgresSaver } from '../patches/langgraph-checkpoint-postgres-one-row-checkpoints.js';
import { checkpointTables } from './tables.js';

/**
 * LangGraph's PostgreSQL checkpointer over the query pool, in `schema`. With `oneRowCheckpoints`
 * (the default where it is called) its writes go through the patch of the same name.
 */
export function createCheckpointer(
  pool: pg.Pool,
  schema: string,
  options: { oneRowCheckpoints: boolean },
): PostgresSaver {
  return options.oneRowCheckpoints
    ? new OneRowPostgresSaver(pool, schema, checkpointTables(schema))
    : new PostgresSaver(pool, undefined, { schema });
}
