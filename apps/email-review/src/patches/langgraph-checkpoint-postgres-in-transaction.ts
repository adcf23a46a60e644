/**
 * Framework patch `langgraph-checkpoint-postgres-in-transaction` —
 * @langchain/langgraph-checkpoint-postgres@1.0.5 (pinned exactly in package.json for it).
 *
 * Touches nothing inside the saver; it leans on how the stock `PostgresSaver` uses the pool it is
 * given: reads call `pool.query`, and `put`, `putWrites` and `deleteThread` check a client out
 * with `pool.connect()` and wrap their statements in `BEGIN` … `COMMIT` (`ROLLBACK` on error).
 * Why: a decision writes its checkpoint in the same transaction as the thread's view, its history
 * and its job, and the saver takes no client. This pool hands out the transaction's own client,
 * on which the saver's BEGIN, COMMIT and ROLLBACK are left out (an error still rolls the whole
 * transaction back: the caller's ROLLBACK).
 * Guarded by: apps/email-review/test/write-order.test.ts (an edit whose view write fails leaves no
 * checkpoint) and test/decisions.test.ts.
 */
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type pg from 'pg';

const OWN_TRANSACTION = new Set(['BEGIN', 'COMMIT', 'ROLLBACK']);

/** LangGraph's PostgreSQL saver whose reads and writes run on `client`, inside its transaction. */
export function checkpointerIn(client: pg.PoolClient, schema: string): PostgresSaver {
  const query = (text: string, values?: unknown[]) =>
    OWN_TRANSACTION.has(text)
      ? Promise.resolve({ rows: [], rowCount: 0 })
      : client.query(text, values);
  const inTransaction = { query, connect: async () => ({ query, release: () => {} }) };
  return new PostgresSaver(inTransaction as unknown as pg.Pool, undefined, { schema });
}
