import type { BaseCheckpointSaver } from '@langchain/langgraph';
import type pg from 'pg';

/**
 * One transaction: what the stores write with, and LangGraph's saver whose writes commit (or roll
 * back) with theirs. PostgreSQL: BEGIN … COMMIT on `client`, the saver on that client. Memory: one
 * transaction at a time, the saver's writes made once the work returns.
 */
export interface Transaction {
  /** PostgreSQL: the transaction's client. */
  client?: pg.PoolClient;
  checkpointer: BaseCheckpointSaver;
}
