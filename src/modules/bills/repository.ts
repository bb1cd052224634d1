import { count, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { rowsOf } from '../../platform/db/errors';
import { utilityBills } from './tables';

export type BillRow = typeof utilityBills.$inferSelect;

export interface NewBill {
  utility_type: string;
  period_start: string;
  period_end: string;
  amount: number;
  usage_kwh: number | null;
  demand_kw: number | null;
}

export function createBillRepository(db: Executor) {
  return {
    /** The new bill, or null when one already exists for the property, utility type and period. */
    async insertOne(propertyId: string, b: NewBill): Promise<BillRow | null> {
      const [row] = await db
        .insert(utilityBills)
        .values({
          propertyId,
          utilityType: b.utility_type,
          periodStart: b.period_start,
          periodEnd: b.period_end,
          amount: b.amount,
          usageKwh: b.usage_kwh,
          demandKw: b.demand_kw,
        })
        .onConflictDoNothing()
        .returning();
      return row ?? null;
    },

    /**
     * Inserts validated rows in one statement (so atomically): rows are shipped as one JSON
     * parameter and expanded by jsonb_to_recordset, far cheaper than thousands of bind
     * parameters. Rows whose key exists already are skipped. Returns how many were stored.
     */
    async insertBatch(propertyId: string, rows: NewBill[]): Promise<number> {
      if (rows.length === 0) return 0;
      const result = await db.execute(sql`
        insert into ${utilityBills} (property_id, utility_type, period_start, period_end, amount, usage_kwh, demand_kw)
        select ${propertyId}, r.utility_type, r.period_start, r.period_end, r.amount, r.usage_kwh, r.demand_kw
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          as r(utility_type text, period_start date, period_end date, amount numeric, usage_kwh numeric, demand_kw numeric)
        on conflict (property_id, period_start, period_end, utility_type) do nothing
        returning 1`);
      return rowsOf(result).length;
    },

    async list(propertyId: string, limit: number, offset: number) {
      const where = eq(utilityBills.propertyId, propertyId);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(utilityBills)
          .where(where)
          .orderBy(desc(utilityBills.periodStart), desc(utilityBills.periodEnd), desc(utilityBills.utilityType))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(utilityBills).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },
  };
}
