import type { Logger } from '@repo/http-kit';
import { DatabaseUnavailable, isDatabaseUnreachable } from './database-unavailable.js';

/**
 * Turns "the database cannot be reached" into 503 `database_unavailable`, and logs an outage
 * once when it starts and once when it ends, not once per request.
 */
export class DatabaseHealth {
  private down = false;

  constructor(private readonly logger: Logger) {}

  /** Runs a database step: unreachable → DatabaseUnavailable; success ends an outage. */
  async guard<T>(step: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await step();
    } catch (error) {
      if (error instanceof DatabaseUnavailable) throw error;
      if (!isDatabaseUnreachable(error)) throw error;
      this.markDown(error);
      throw new DatabaseUnavailable(error);
    }
    this.markUp();
    return result;
  }

  markDown(error: unknown): void {
    if (this.down) return;
    this.down = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.error({ reason }, 'database unavailable');
  }

  markUp(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info('database available again');
  }
}
