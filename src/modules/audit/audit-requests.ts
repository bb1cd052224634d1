import { sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { rowsOf } from '../../platform/db/errors';
import { viewOfMeters } from '../meters/public';
import { meterAudits } from './tables';

/**
 * Whether a meter's stored audit is current (README "Endpoints"): a write that changes a meter's
 * bills or what prices them marks the meter (`meter_audits.requested_at`, the database's clock)
 * before its audit is queued; the stored audit is stale until an audit that read the meter after
 * the mark stores (`read_at` later than `requested_at`). A mark made while an audit runs leaves that
 * audit stale, since it read before the change.
 */
export function createAuditRequests(db: Executor) {
  return {
    /** Marks these meters' audits as asked for now (meters gone since are left out). One statement. */
    async markRequested(meterIds: readonly string[]): Promise<void> {
      if (meterIds.length === 0) return;
      // A meter never audited gets a row that no audit has read ('-infinity'), so any audit stores over it.
      await db.execute(sql`
        insert into ${meterAudits} (meter_id, read_at, requested_at)
        select m.id, '-infinity'::timestamptz, now() from ${viewOfMeters('m')}
        where m.id = any(array(select jsonb_array_elements_text(${JSON.stringify([...meterIds])}::jsonb)))
        -- In id order: concurrent marks and stores of overlapping meters lock their rows in the same order.
        order by m.id
        on conflict (meter_id) do update set requested_at = excluded.requested_at`);
    },

    /** True while an audit of the meter asked for is not yet stored. */
    async isStale(meterId: string): Promise<boolean> {
      const [row] = rowsOf<{ stale: boolean }>(
        await db.execute(sql`
        select coalesce(requested_at > read_at, false) as stale from ${meterAudits} where meter_id = ${meterId}`),
      );
      return row?.stale ?? false;
    },
  };
}

export type AuditRequests = ReturnType<typeof createAuditRequests>;
