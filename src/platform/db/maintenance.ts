import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from './client';
import type { Logger } from '../logger';

/** Payload of the `db-maintenance` queue: a full VACUUM (ANALYZE), or the planner statistics only. */
export const dbMaintenancePayload = z.object({ vacuum: z.boolean() }).strict();

export type MaintenanceOutcome = 'vacuum_analyze' | 'analyze' | 'not_needed';

/**
 * Housekeeping PostgreSQL's autovacuum does by itself and embedded PGlite has no process for:
 * without it, dead rows pile up and the planner keeps the row counts of the day the tables were
 * created (an owner grown to 10,000 properties is planned as a handful). On PostgreSQL the job is a no-op.
 */
export function createDatabaseMaintenance(deps: { database: Database; logger: Logger }) {
  return {
    async run(job: z.output<typeof dbMaintenancePayload>): Promise<MaintenanceOutcome> {
      if (deps.database.kind !== 'pglite') return 'not_needed';
      const started = Date.now();
      await deps.database.db.execute(sql.raw(job.vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE'));
      deps.logger.info({ vacuum: job.vacuum, durationMs: Date.now() - started }, 'embedded database maintenance done');
      return job.vacuum ? 'vacuum_analyze' : 'analyze';
    },
  };
}

export type DatabaseMaintenance = ReturnType<typeof createDatabaseMaintenance>;
