import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type pg from 'pg';
import { OneStatementPostgresSaver } from '../patches/langgraph-checkpoint-postgres-one-statement-writes.js';
import { checkpointTables } from './tables.js';

/**
 * LangGraph's PostgreSQL checkpointer over the query pool, in `schema`. With `oneStatementWrites`
 * (the default where it is called) its writes go through the patch of the same name.
 */
export function createCheckpointer(
  pool: pg.Pool,
  schema: string,
  options: { oneStatementWrites: boolean },
): PostgresSaver {
  return options.oneStatementWrites
    ? new OneStatementPostgresSaver(pool, schema, checkpointTables(schema))
    : new PostgresSaver(pool, undefined, { schema });
}
