import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { pageOfRows } from '../../platform/db/rows';
import { rowsOf, sqlState } from '../../platform/db/errors';
import type { BillUsage } from './bill-rules';
import { bills } from './tables';

export type BillRow = typeof bills.$inferSelect;

/** A bill to store; its usage fields are bill-rules.ts's answer (BillUsage). */
export interface NewBill extends BillUsage {
  meter_id: string;
  utility_type: string;
  period_start: string;
  period_end: string;
  amount: number;
  demand_kw: number | null;
  is_estimated: boolean;
  /** As the utility printed them (the API only; an import has none). */
  line_items?: Array<{ category: string; description: string; amount: number }> | null;
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

/** A bill refused by utility_bills_no_overlap (tables.ts): another bill of its meter overlaps its period. */
const violatesNoOverlap = (err: unknown) => sqlState(err) === '23P01';

/**
 * For each (meter, period) given, the stored bill of the meter overlapping it that starts first (or
 * none): the bill a refusal names. One probe each of the constraint's GiST index.
 */
async function overlapping(
  db: Executor,
  rows: Array<Pick<NewBill, 'meter_id' | 'period_start' | 'period_end'>>,
): Promise<Array<OverlappingBill | undefined>> {
  const keys = rows.map((r, n) => ({ n, meter_id: r.meter_id, period_start: r.period_start, period_end: r.period_end }));
  const found = rowsOf<{ n: number; id: string; period_start: string; period_end: string }>(
    await db.execute(sql`
    select r.n, b.id, b.period_start::text as period_start, b.period_end::text as period_end
    from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as r(n int, meter_id text, period_start date, period_end date)
    cross join lateral (
      select o.id, o.period_start, o.period_end from ${bills} o
      where o.meter_id = r.meter_id and daterange(o.period_start, o.period_end, '[]') && daterange(r.period_start, r.period_end, '[]')
      order by o.period_start limit 1
    ) b`),
  );
  const out: Array<OverlappingBill | undefined> = new Array(rows.length).fill(undefined);
  for (const f of found) out[f.n] = { id: f.id, period_start: f.period_start, period_end: f.period_end };
  return out;
}

export function createBillRepository(db: Executor) {
  /** Refusals in a row before giving up: each means the bill named was deleted before it could be read. */
  const MAX_ATTEMPTS = 5;

  return {
    /** The new bill, or the meter's bill that overlaps its period (then nothing is stored). */
    async insertOne(propertyId: string, b: NewBill): Promise<BillRow | { overlaps: OverlappingBill }> {
      for (let attempt = 1; ; attempt++) {
        try {
          const [row] = await db
            .insert(bills)
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
              heatContent: b.heat_content,
              lineItems: b.line_items ?? null,
            })
            .returning();
          return row!;
        } catch (err) {
          if (!violatesNoOverlap(err) || attempt >= MAX_ATTEMPTS) throw err;
        }
        const [other] = await overlapping(db, [b]);
        if (other) return { overlaps: other };
      }
    },

    /**
     * Inserts validated rows, ordered by meter and period, in one statement (so atomically): rows are
     * shipped as one JSON parameter and expanded by jsonb_to_recordset, far cheaper than thousands of
     * bind parameters. A row the constraint refuses (it overlaps a stored bill of its meter, or an
     * earlier row of the batch) is skipped, a concurrent writer's rows included; the outcome of each
     * row says which (a duplicate: its meter has a bill of that very period).
     */
    async insertBatch(propertyId: string, rows: NewBill[]): Promise<BatchOutcome[]> {
      if (rows.length === 0) return [];
      const stored = rowsOf<{ meter_id: string; period_start: string; period_end: string }>(
        await db.execute(sql`
        insert into ${bills} (property_id, meter_id, utility_type, period_start, period_end, amount, usage, unit, usage_kwh, demand_kw,
          is_estimated, heat_content)
        select ${propertyId}, r.meter_id, r.utility_type, r.period_start, r.period_end, r.amount, r.usage, r.unit, r.usage_kwh, r.demand_kw,
          r.is_estimated, r.heat_content
        from jsonb_to_recordset(${JSON.stringify(rows.map((r, n) => ({ ...r, n })))}::jsonb)
          as r(meter_id text, utility_type text, period_start date, period_end date, amount numeric, usage numeric, unit text,
               usage_kwh numeric, demand_kw numeric, is_estimated boolean, heat_content numeric, n int)
        -- In the order given: a row overlapping an earlier one is the one skipped.
        order by r.n
        on conflict do nothing
        returning meter_id, period_start::text as period_start, period_end::text as period_end`),
      );
      const storedKeys = new Set(stored.map((k) => keyOf(k.meter_id, k.period_start, k.period_end)));
      const outcomes: Array<BatchOutcome | undefined> = rows.map((r) =>
        storedKeys.delete(keyOf(r.meter_id, r.period_start, r.period_end)) ? 'stored' : undefined,
      );
      const skipped = rows.filter((_, i) => outcomes[i] === undefined);
      if (skipped.length === 0) return outcomes as BatchOutcome[];
      const others = await overlapping(db, skipped);
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
      const where = eq(bills.propertyId, propertyId);
      const list = db
        .select()
        .from(bills)
        .where(where)
        .orderBy(desc(bills.periodStart), desc(bills.periodEnd), desc(bills.utilityType), desc(bills.meterId));
      return pageOfRows(db, list, { table: bills, where }, limit, offset);
    },
  };
}
