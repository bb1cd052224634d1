import { count, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { rowsOf } from '../../platform/db/errors';
import { utilityBills } from './tables';

export type BillRow = typeof utilityBills.$inferSelect;

export interface NewBill {
  meter_id: string;
  utility_type: string;
  period_start: string;
  period_end: string;
  amount: number;
  usage: number | null;
  unit: string;
  usage_kwh: number | null;
  demand_kw: number | null;
  is_estimated: boolean;
}

/** Another bill of the meter whose period overlaps. */
export interface OverlappingBill {
  id: string;
  period_start: string;
  period_end: string;
}

/** What became of one row of a batch: stored, a duplicate (its meter has a bill of that very period), or refused for an overlap. */
export type BatchOutcome = 'stored' | 'duplicate' | { overlaps: OverlappingBill };

const keyOf = (meterId: string, start: string, end: string) => `${meterId} ${start} ${end}`;

export function createBillRepository(db: Executor) {
  /** For each (meter, period) given, the first stored bill of the meter overlapping it (or none). */
  async function overlapping(rows: Array<Pick<NewBill, 'meter_id' | 'period_start' | 'period_end'>>): Promise<Array<OverlappingBill | undefined>> {
    const keys = rows.map((r, n) => ({ n, meter_id: r.meter_id, period_start: r.period_start, period_end: r.period_end }));
    const found = rowsOf<{ n: number; id: string; period_start: string; period_end: string }>(await db.execute(sql`
      select r.n, b.id, b.period_start::text as period_start, b.period_end::text as period_end
      from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as r(n int, meter_id text, period_start date, period_end date)
      cross join lateral (
        select o.id, o.period_start, o.period_end from ${utilityBills} o
        where o.meter_id = r.meter_id and daterange(o.period_start, o.period_end, '[]') && daterange(r.period_start, r.period_end, '[]')
        order by o.period_start, o.id limit 1
      ) b`));
    const out: Array<OverlappingBill | undefined> = new Array(rows.length).fill(undefined);
    for (const f of found) out[f.n] = { id: f.id, period_start: f.period_start, period_end: f.period_end };
    return out;
  }

  return {
    /** The new bill, or the meter's bill that overlaps its period (then nothing is stored). */
    async insertOne(propertyId: string, b: NewBill): Promise<BillRow | { overlaps: OverlappingBill }> {
      const [row] = await db
        .insert(utilityBills)
        .values({
          propertyId,
          meterId: b.meter_id,
          utilityType: b.utility_type,
          periodStart: b.period_start,
          periodEnd: b.period_end,
          amount: b.amount,
          usage: b.usage,
          unit: b.unit,
          usageKwh: b.usage_kwh,
          demandKw: b.demand_kw,
          isEstimated: b.is_estimated,
        })
        .onConflictDoNothing() // the exclusion constraint: an overlapping bill of the meter
        .returning();
      if (row) return row;
      const [other] = await overlapping([b]);
      // The overlapping bill was deleted in between: the constraint would now let this one in.
      if (!other) return this.insertOne(propertyId, b);
      return { overlaps: other };
    },

    /**
     * Inserts validated rows in one statement (so atomically): rows are shipped as one JSON
     * parameter and expanded by jsonb_to_recordset, far cheaper than thousands of bind
     * parameters. A row overlapping a bill of its meter (stored before, or earlier in the
     * batch) is skipped; the outcome of each row says which.
     */
    async insertBatch(propertyId: string, rows: NewBill[]): Promise<BatchOutcome[]> {
      if (rows.length === 0) return [];
      const stored = rowsOf<{ meter_id: string; period_start: string; period_end: string }>(await db.execute(sql`
        insert into ${utilityBills} (property_id, meter_id, utility_type, period_start, period_end, amount, usage, unit, usage_kwh, demand_kw, is_estimated)
        select ${propertyId}, r.meter_id, r.utility_type, r.period_start, r.period_end, r.amount, r.usage, r.unit, r.usage_kwh, r.demand_kw, r.is_estimated
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          as r(meter_id text, utility_type text, period_start date, period_end date, amount numeric, usage numeric, unit text,
               usage_kwh numeric, demand_kw numeric, is_estimated boolean)
        on conflict do nothing
        returning meter_id, period_start::text as period_start, period_end::text as period_end`));
      // Each stored key stands for one row: a second row with the same key was a duplicate.
      const storedKeys = new Set(stored.map((s) => keyOf(s.meter_id, s.period_start, s.period_end)));
      const outcomes: Array<BatchOutcome | undefined> = rows.map((r) => {
        const key = keyOf(r.meter_id, r.period_start, r.period_end);
        return storedKeys.delete(key) ? 'stored' : undefined;
      });
      const skipped = rows.filter((_, i) => outcomes[i] === undefined);
      if (skipped.length === 0) return outcomes as BatchOutcome[];
      const others = await overlapping(skipped);
      let k = 0;
      return outcomes.map((o) => {
        if (o) return o;
        const row = skipped[k]!;
        const other = others[k++];
        // An overlapping bill deleted in between leaves nothing to name: report the row as a duplicate, not stored.
        if (!other || (other.period_start === row.period_start && other.period_end === row.period_end)) return 'duplicate';
        return { overlaps: other };
      });
    },

    async list(propertyId: string, limit: number, offset: number) {
      const where = eq(utilityBills.propertyId, propertyId);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(utilityBills)
          .where(where)
          .orderBy(desc(utilityBills.periodStart), desc(utilityBills.periodEnd), desc(utilityBills.utilityType), desc(utilityBills.meterId))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(utilityBills).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },
  };
}
