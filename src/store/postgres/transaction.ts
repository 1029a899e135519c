import type pg from 'pg';
import { Refusal } from '../sql/refusal.js';
import { withClient } from './outage.js';

/**
 * Runs `work` in a transaction on one pooled client: commits what it did, or rolls all of it back
 * when it throws. A Refusal (../sql/refusal.ts) is the write's answer, given after the rollback;
 * any other error is raised.
 */
export function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withClient(pool, async (client) => {
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      if (error instanceof Refusal) return error.answer as T;
      throw error;
    }
  });
}
