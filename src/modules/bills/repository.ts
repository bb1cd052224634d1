import { count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { rowsOf, sqlState } from '../../platform/db/errors';
import { bills } from './tables';

export type BillRow = typeof bills.$inferSelect;

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
  /** Therms per ccf, gas bills only. */
  heat_content: number | null;
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

/**
 * The stored bill of meter `meter` that overlaps the period `start`..`end` and starts first (at most
 * one row: id, period_start, period_end). A meter's stored bills never overlap, so only two can be the
 * first to: the one starting last before `start` (when it ends on or after it) and the first one
 * starting inside the period; each is one probe of utility_bills_meter_period_key, however many bills
 * the meter has (the trigger of db-functions.sql checks the same way).
 */
const firstOverlapSql = (meter: SQL, start: SQL, end: SQL): SQL => sql`
  select c.id, c.period_start, c.period_end from (
    (select o.id, o.period_start, o.period_end from ${bills} o
      where o.meter_id = ${meter} and o.period_start < ${start} order by o.period_start desc limit 1)
    union all
    (select o.id, o.period_start, o.period_end from ${bills} o
      where o.meter_id = ${meter} and o.period_start between ${start} and ${end} order by o.period_start limit 1)
  ) c
  where c.period_end >= ${start}
  order by c.period_start
  limit 1`;

export function createBillRepository(db: Executor) {
  /** For each (meter, period) given, the first stored bill of the meter overlapping it (or none). */
  async function overlapping(rows: Array<Pick<NewBill, 'meter_id' | 'period_start' | 'period_end'>>): Promise<Array<OverlappingBill | undefined>> {
    const keys = rows.map((r, n) => ({ n, meter_id: r.meter_id, period_start: r.period_start, period_end: r.period_end }));
    const found = rowsOf<{ n: number; id: string; period_start: string; period_end: string }>(await db.execute(sql`
      select r.n, b.id, b.period_start::text as period_start, b.period_end::text as period_end
      from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as r(n int, meter_id text, period_start date, period_end date)
      cross join lateral (${firstOverlapSql(sql`r.meter_id`, sql`r.period_start`, sql`r.period_end`)}) b`));
    const out: Array<OverlappingBill | undefined> = new Array(rows.length).fill(undefined);
    for (const f of found) out[f.n] = { id: f.id, period_start: f.period_start, period_end: f.period_end };
    return out;
  }

  /** Two bills of one meter overlapped (the trigger utility_bills_no_overlap, db-functions.sql): a concurrent write got there first. */
  const isOverlap = (err: unknown) => sqlState(err) === '23P01';
  /** Races lost in a row before giving up (each is a concurrent write of the same meter committing first). */
  const MAX_ATTEMPTS = 5;

  /** Rows whose meter and period overlap an earlier row of the list (ordered by meter, start, end): at most one per meter is kept. */
  function overlappingEarlierRows(rows: NewBill[]): Set<number> {
    const lastEnd = new Map<string, string>();
    const skipped = new Set<number>();
    rows.forEach((r, i) => {
      const end = lastEnd.get(r.meter_id);
      if (end !== undefined && r.period_start <= end) skipped.add(i);
      else lastEnd.set(r.meter_id, r.period_end);
    });
    return skipped;
  }

  /** Inserts the rows that overlap no stored bill of their meter (one statement); the stored keys. */
  async function insertFree(propertyId: string, rows: NewBill[]): Promise<Set<string>> {
    const stored = rowsOf<{ meter_id: string; period_start: string; period_end: string }>(await db.execute(sql`
      insert into ${bills} (property_id, meter_id, utility_type, period_start, period_end, amount, usage, unit, usage_kwh, demand_kw, is_estimated,
        heat_content)
      select ${propertyId}, r.meter_id, r.utility_type, r.period_start, r.period_end, r.amount, r.usage, r.unit, r.usage_kwh, r.demand_kw, r.is_estimated,
        r.heat_content
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as r(meter_id text, utility_type text, period_start date, period_end date, amount numeric, usage numeric, unit text,
             usage_kwh numeric, demand_kw numeric, is_estimated boolean, heat_content numeric)
      where not exists (${firstOverlapSql(sql`r.meter_id`, sql`r.period_start`, sql`r.period_end`)})
      on conflict (meter_id, period_start, period_end) do nothing
      returning meter_id, period_start::text as period_start, period_end::text as period_end`));
    return new Set(stored.map((k) => keyOf(k.meter_id, k.period_start, k.period_end)));
  }

  return {
    /** The new bill, or the meter's bill that overlaps its period (then nothing is stored). */
    async insertOne(propertyId: string, b: NewBill): Promise<BillRow | { overlaps: OverlappingBill }> {
      for (let attempt = 1; ; attempt++) {
        const [before] = await overlapping([b]);
        if (before) return { overlaps: before };
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
            .onConflictDoNothing()
            .returning();
          if (row) return row;
        } catch (err) {
          if (!isOverlap(err) || attempt >= MAX_ATTEMPTS) throw err;
        }
        // A concurrent write of the meter's bills got in between: look again.
      }
    },

    /**
     * Inserts validated rows, ordered by meter and period, in one statement (so atomically): rows are
     * shipped as one JSON parameter and expanded by jsonb_to_recordset, far cheaper than thousands of
     * bind parameters. A row overlapping a stored bill of its meter, or an earlier row of the batch,
     * is skipped; the outcome of each row says which (a duplicate: its meter has a bill of that very
     * period). A concurrent write of the same meters that wins the race makes the statement fail on
     * the overlap check: it is run again, and then sees what that write stored.
     */
    async insertBatch(propertyId: string, rows: NewBill[]): Promise<BatchOutcome[]> {
      if (rows.length === 0) return [];
      const earlier = overlappingEarlierRows(rows);
      const candidates = rows.filter((_, i) => !earlier.has(i));
      let storedKeys: Set<string>;
      for (let attempt = 1; ; attempt++) {
        try {
          storedKeys = await insertFree(propertyId, candidates);
          break;
        } catch (err) {
          if (!isOverlap(err) || attempt >= MAX_ATTEMPTS) throw err;
        }
      }
      const outcomes: Array<BatchOutcome | undefined> = rows.map((r, i) =>
        !earlier.has(i) && storedKeys.delete(keyOf(r.meter_id, r.period_start, r.period_end)) ? 'stored' : undefined);
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
      const where = eq(bills.propertyId, propertyId);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(bills)
          .where(where)
          .orderBy(desc(bills.periodStart), desc(bills.periodEnd), desc(bills.utilityType), desc(bills.meterId))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(bills).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },
  };
}
