import type pg from 'pg';

/**
 * Runs `work` in a transaction on one of the pool's connections: committed when it returns, rolled
 * back when it throws. A connection that cannot even roll back is broken, and is destroyed rather
 * than pooled.
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    const broken = await client.query('ROLLBACK').then(
      () => false,
      () => true,
    );
    client.release(broken);
    throw error;
  }
}
