import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/client';
import { meterIntervalDays, meters } from '../tables';

export interface DayRow {
  day: string;
  intervalMinutes: number;
  wh: Array<number | null>;
}

export interface MergeOutcome {
  stored: number;
  duplicates: number;
  replaced: number;
  /** Days already stored at another interval length, with the readings refused for each. */
  conflicts: Array<{ day: string; stored_minutes: number; readings: number }>;
}

export function createIntervalRepository(db: Db) {
  return {
    /**
     * Merges days of readings into the stored days in one transaction (the meter's row locked, so
     * two imports of one meter merge in turn): a slot without a new reading keeps the stored one; a
     * new reading fills an empty slot (stored) or replaces the stored one (duplicate; replaced when
     * the value differs).
     */
    async merge(meterId: string, days: Map<string, DayRow>): Promise<MergeOutcome> {
      const out: MergeOutcome = { stored: 0, duplicates: 0, replaced: 0, conflicts: [] };
      if (days.size === 0) return out;
      await db.transaction(async (tx) => {
        await tx.select({ id: meters.id }).from(meters).where(eq(meters.id, meterId)).for('update');
        const existing = await tx
          .select()
          .from(meterIntervalDays)
          .where(and(eq(meterIntervalDays.meterId, meterId), inArray(meterIntervalDays.day, [...days.keys()])));
        const byDay = new Map(existing.map((r) => [r.day, r]));
        const rows: Array<typeof meterIntervalDays.$inferInsert> = [];
        for (const [day, row] of days) {
          const old = byDay.get(day);
          const filled = row.wh.filter((v) => v !== null).length;
          if (old && old.intervalMinutes !== row.intervalMinutes) {
            out.conflicts.push({ day, stored_minutes: old.intervalMinutes, readings: filled });
            continue;
          }
          const merged = row.wh.map((v, i) => {
            const before = old?.wh[i] ?? null;
            if (v === null) return before;
            if (before === null) out.stored++;
            else {
              out.duplicates++;
              if (before !== v) out.replaced++;
            }
            return v;
          });
          rows.push({ meterId, day, intervalMinutes: row.intervalMinutes, wh: merged as number[] });
        }
        for (let i = 0; i < rows.length; i += 500) {
          await tx
            .insert(meterIntervalDays)
            .values(rows.slice(i, i + 500))
            .onConflictDoUpdate({ target: [meterIntervalDays.meterId, meterIntervalDays.day], set: { wh: sql`excluded.wh` } });
        }
      });
      return out;
    },

    /** The stored days from `from` to before `to` (YYYY-MM-DD, UTC days), in order. */
    async days(meterId: string, from: string, to: string): Promise<DayRow[]> {
      return db
        .select({ day: meterIntervalDays.day, intervalMinutes: meterIntervalDays.intervalMinutes, wh: meterIntervalDays.wh })
        .from(meterIntervalDays)
        .where(and(eq(meterIntervalDays.meterId, meterId), gte(meterIntervalDays.day, from), lt(meterIntervalDays.day, to)))
        .orderBy(asc(meterIntervalDays.day));
    },
  };
}

export type IntervalRepository = ReturnType<typeof createIntervalRepository>;
