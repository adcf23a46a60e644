import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type pg from 'pg';

/** LangGraph's PostgreSQL checkpointer over `pool`, its tables in `schema`. */
export function createCheckpointer(pool: pg.Pool, schema: string): PostgresSaver {
  return new PostgresSaver(pool, undefined, { schema });
}
