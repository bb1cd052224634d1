import { and, asc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../../platform/db/client';
import { pmsUnitView } from '../../pms/public';
import { propertyView } from '../../properties/public';
import { rubsCalculations, rubsPostings } from '../tables';
import type { PostingAction, PostingLineStatus } from './schemas';

export type PostingRow = typeof rubsPostings.$inferSelect;

/** A line's key: the Idempotency-Key's parts after the calculation id. */
export interface LineKey {
  unitId: string;
  occupancy: number;
  action: PostingAction;
}

export interface NewLine extends LineKey {
  amount: number;
}

/** What one send of a line ended with; `tries` calls are added to its attempts. */
export interface LineOutcome {
  status: PostingLineStatus;
  providerChargeId?: string;
  error: string | null;
  tries: number;
}

/** Rows per insert: 8 parameters each, well under PostgreSQL's 65,535 per statement. */
const INSERT_CHUNK = 2000;

const lineWhere = (calculationId: string, k: LineKey) =>
  and(
    eq(rubsPostings.calculationId, calculationId),
    eq(rubsPostings.unitId, k.unitId),
    eq(rubsPostings.occupancy, k.occupancy),
    eq(rubsPostings.action, k.action),
  );

export function createPostingRepository(db: Executor) {
  return { ...calculationQueries(db), ...lineQueries(db), ...pendingLineQueries(db), ...pmsUnitQueries(db) };
}

/** The calculation a posting is of: its head, and its row lock. */
function calculationQueries(db: Executor) {
  return {
    /** The calculation's property, owner and status (null when it does not exist). */
    async calculationHead(calculationId: string): Promise<{ propertyId: string; ownerId: string; status: string } | null> {
      const [row] = await db
        .select({ propertyId: rubsCalculations.propertyId, ownerId: propertyView.ownerId, status: rubsCalculations.status })
        .from(rubsCalculations)
        .innerJoin(propertyView, eq(propertyView.id, rubsCalculations.propertyId))
        .where(eq(rubsCalculations.id, calculationId));
      return row ?? null;
    },

    /**
     * Locks the calculation's row until the transaction ends and reads its status: posting and
     * voiding take this lock, so a void and a post of the same calculation never interleave.
     */
    async lockCalculation(calculationId: string): Promise<string | null> {
      const [row] = await db
        .select({ status: rubsCalculations.status })
        .from(rubsCalculations)
        .where(eq(rubsCalculations.id, calculationId))
        .for('update');
      return row?.status ?? null;
    },
  };
}

/** The posting lines of a calculation: one per unit bill and action, with its outcome. */
function lineQueries(db: Executor) {
  return {
    /** Every line of the calculation, by unit_id (bytewise), occupancy, then post before reverse. */
    async lines(calculationId: string): Promise<PostingRow[]> {
      return db
        .select()
        .from(rubsPostings)
        .where(eq(rubsPostings.calculationId, calculationId))
        .orderBy(sql`${rubsPostings.unitId} collate "C"`, asc(rubsPostings.occupancy), asc(rubsPostings.action));
    },

    /** New lines, pending; a line that already exists is left as it is. */
    async insertLines(calculationId: string, lines: NewLine[], now: Date): Promise<void> {
      for (let i = 0; i < lines.length; i += INSERT_CHUNK) {
        const chunk = lines.slice(i, i + INSERT_CHUNK).map((l) => ({
          calculationId,
          unitId: l.unitId,
          occupancy: l.occupancy,
          action: l.action,
          amount: l.amount,
          status: 'pending',
          attempts: 0,
          updatedAt: now,
        }));
        await db.insert(rubsPostings).values(chunk).onConflictDoNothing();
      }
    },

    /**
     * Failed lines of an action, and those whose outcome is unknown, are pending again: sent again under
     * their own key, the provider answers with the charge it made, or makes it (reconciliation).
     */
    async retryFailed(calculationId: string, action: PostingAction, now: Date): Promise<number> {
      const rows = await db
        .update(rubsPostings)
        .set({ status: 'pending', error: null, updatedAt: now })
        .where(
          and(
            eq(rubsPostings.calculationId, calculationId),
            eq(rubsPostings.action, action),
            inArray(rubsPostings.status, ['failed', 'unknown']),
          ),
        )
        .returning({ unitId: rubsPostings.unitId });
      return rows.length;
    },

    /** Lines of `keys` (post lines whose outcome is unknown) are pending again, so a reversal can follow their answer. */
    async resend(calculationId: string, keys: LineKey[], now: Date): Promise<void> {
      for (const k of keys) {
        await db
          .update(rubsPostings)
          .set({ status: 'pending', updatedAt: now })
          .where(and(lineWhere(calculationId, k), eq(rubsPostings.status, 'unknown')));
      }
    },

    /** The pending lines of an action, marked as taken now (the sweeper leaves recently touched lines to their job). */
    async claimPending(calculationId: string, action: PostingAction, now: Date): Promise<PostingRow[]> {
      const rows = await db
        .update(rubsPostings)
        .set({ updatedAt: now })
        .where(and(eq(rubsPostings.calculationId, calculationId), eq(rubsPostings.action, action), eq(rubsPostings.status, 'pending')))
        .returning();
      return rows.sort((a, b) => (a.unitId < b.unitId ? -1 : a.unitId > b.unitId ? 1 : a.occupancy - b.occupancy));
    },

    /** Writes a send's outcome; a line already posted stays as it is (two runs that overlapped agree anyway). */
    async record(calculationId: string, key: LineKey, outcome: LineOutcome, now: Date): Promise<void> {
      await db
        .update(rubsPostings)
        .set({
          status: outcome.status,
          providerChargeId: outcome.providerChargeId ?? null,
          error: outcome.error,
          attempts: sql`${rubsPostings.attempts} + ${outcome.tries}`,
          updatedAt: now,
        })
        .where(and(lineWhere(calculationId, key), sql`${rubsPostings.status} <> 'posted'`));
    },
  };
}

/** Pending lines of an action: ending them, how long they waited, and those the sweeper owes a run. */
function pendingLineQueries(db: Executor) {
  return {
    /**
     * What is still pending ends: `unknown` when it was sent at least once (a call may have reached the
     * provider and made the charge), else `failed`; with `reason` when `override` (a reason that holds for
     * every line, such as no PMS link), else with each line's last reason (`reason` for a line never tried).
     */
    async failPending(calculationId: string, action: PostingAction, reason: string, now: Date, override: boolean): Promise<number> {
      const rows = await db
        .update(rubsPostings)
        .set({
          status: sql`case when ${rubsPostings.attempts} > 0 then 'unknown' else 'failed' end`,
          error: override ? reason : sql`coalesce(${rubsPostings.error}, ${reason})`,
          updatedAt: now,
        })
        .where(and(eq(rubsPostings.calculationId, calculationId), eq(rubsPostings.action, action), eq(rubsPostings.status, 'pending')))
        .returning({ unitId: rubsPostings.unitId });
      return rows.length;
    },

    /** When the oldest pending line of an action last changed, in ms since the epoch (null: none pending). */
    async oldestPending(calculationId: string, action: PostingAction): Promise<number | null> {
      const [row] = await db
        .select({ ms: sql<string | null>`floor(extract(epoch from min(${rubsPostings.updatedAt})) * 1000)::bigint::text` })
        .from(rubsPostings)
        .where(and(eq(rubsPostings.calculationId, calculationId), eq(rubsPostings.action, action), eq(rubsPostings.status, 'pending')));
      return row?.ms ? Number(row.ms) : null;
    },

    /** (calculation, action) pairs with a line pending and untouched since before `olderThan`. */
    async owedPostings(olderThan: Date, limit: number): Promise<Array<{ calculationId: string; action: PostingAction }>> {
      const rows = await db
        .selectDistinct({ calculationId: rubsPostings.calculationId, action: rubsPostings.action })
        .from(rubsPostings)
        .where(and(eq(rubsPostings.status, 'pending'), lt(rubsPostings.updatedAt, olderThan)))
        .limit(limit);
      return rows.map((r) => ({ calculationId: r.calculationId, action: r.action as PostingAction }));
    },
  };
}

/** The property's imported PMS units a posting charges. */
function pmsUnitQueries(db: Executor) {
  return {
    /**
     * The PMS unit id of each of `unitIds` among the property's imported units: the unit whose
     * `pms_unit_id` it is (calculate-from-pms bills by PMS ids), else the unit whose own `id` it is.
     * Ids that match neither are left out.
     */
    async pmsUnitIds(propertyId: string, unitIds: string[]): Promise<Map<string, string>> {
      const found = new Map<string, string>();
      if (unitIds.length === 0) return found;
      const rows = await db
        .select({ id: pmsUnitView.id, pmsUnitId: pmsUnitView.pmsUnitId })
        .from(pmsUnitView)
        .where(and(eq(pmsUnitView.propertyId, propertyId), or(inArray(pmsUnitView.pmsUnitId, unitIds), inArray(pmsUnitView.id, unitIds))));
      const wanted = new Set(unitIds);
      for (const r of rows) if (wanted.has(r.id) && !found.has(r.id)) found.set(r.id, r.pmsUnitId);
      // A PMS id match wins over a local id match.
      for (const r of rows) if (wanted.has(r.pmsUnitId)) found.set(r.pmsUnitId, r.pmsUnitId);
      return found;
    },
  };
}

export type PostingRepository = ReturnType<typeof createPostingRepository>;
