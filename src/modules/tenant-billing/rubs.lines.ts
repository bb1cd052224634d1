/**
 * The RUBS allocator's lines and their time weights (rubs.calc.ts allocates): one line per unit or
 * per occupancy of a unit that turned over, its occupied days within the period, and what those
 * days weigh (README rules 3, 9 and 13). Pure.
 */
import { occupiedRange } from './occupancy';
import type { BillingUnit, UnitAllocation } from './rubs.types';

/** A line as it comes from its unit, before the arithmetic fills in its share and charges. */
function newLine(
  unit: BillingUnit,
  occupancy: number | null,
  tenantName: string,
  moveIn: string | null,
  moveOut: string | null,
  occupantCount: number | null,
  days: number,
): UnitAllocation {
  return {
    unit,
    occupancy,
    tenantName,
    moveIn,
    moveOut,
    occupantCount,
    occupantFactor: null,
    isVacant: days === 0,
    occupiedDays: days,
    occupiedWh: null,
    shareBasisPoints: 0,
    shareCents: 0,
    limit: null,
    baseCents: 0,
    adminFeeCents: 0,
    billingFeeCents: 0,
    totalCents: 0,
  };
}

/**
 * The lines of the units: one per unit, or one per occupancy of a unit sent with occupancies, each
 * with its occupied days as indexes into the period (from > to: none), and per line its unit's index.
 */
export function linesOf(units: readonly BillingUnit[], startDay: number, endDay: number, period: number) {
  const lines: UnitAllocation[] = [];
  const ranges: Array<[number, number]> = [];
  const unitOf: number[] = [];
  const add = (line: UnitAllocation, range: [number, number], unitIndex: number) => {
    lines.push(line);
    ranges.push([range[0] - startDay, range[1] - startDay]);
    unitOf.push(unitIndex);
  };
  units.forEach((u, unitIndex) => {
    if (u.occupancies && u.occupancies.length > 0) {
      let covered = 0;
      u.occupancies.forEach((o, k) => {
        const range = occupiedRange(o, startDay, endDay);
        const days = Math.max(0, range[1] - range[0] + 1);
        covered += days;
        add(newLine(u, k, o.tenant_name, o.move_in ?? null, o.move_out ?? null, o.occupant_count ?? null, days), range, unitIndex);
      });
      if (covered > period) throw new RangeError(`unit ${u.unit_id}: its occupancies overlap`);
    } else {
      const range: [number, number] = u.is_vacant ? [endDay + 1, endDay] : occupiedRange(u, startDay, endDay);
      const days = Math.max(0, range[1] - range[0] + 1);
      add(newLine(u, null, u.tenant_name, u.move_in ?? null, u.move_out ?? null, u.occupant_count ?? null, days), range, unitIndex);
    }
  });
  return { lines, ranges, unitOf };
}

/**
 * The running sums of the daily weights (prefix[k] = the first k days' weight), checked: one
 * positive integer per day of the period, their sum a safe integer; null without daily weights.
 */
export function dailyPrefix(daily: readonly number[] | null | undefined, period: number): number[] | null {
  if (!daily) return null;
  if (daily.length !== period) throw new RangeError(`dailyWeights must have one weight per day of the period (${period})`);
  const prefix = [0];
  for (const w of daily) {
    if (!Number.isSafeInteger(w) || w <= 0) throw new RangeError('dailyWeights must be positive integers');
    prefix.push(prefix[prefix.length - 1] + w);
  }
  if (!Number.isSafeInteger(prefix[period])) throw new RangeError('dailyWeights are too large');
  return prefix;
}

/**
 * The time weights of the lines (README rule 3, and "Interval proration"): when nobody moved within
 * the period, 1 for an occupied line (the period cancels out of every share, and the integers stay
 * small); else its occupied days, or with daily weights their sum over its days. The full weight is
 * the whole period's; a unit's turnover gap is what its occupancies leave of it.
 */
export function timeWeights(
  lines: readonly UnitAllocation[],
  ranges: ReadonlyArray<[number, number]>,
  unitOf: readonly number[],
  unitCount: number,
  period: number,
  prefix: number[] | null,
) {
  const prorated = lines.some((l) => l.occupiedDays !== 0 && l.occupiedDays !== period);
  const weightOf = (l: UnitAllocation, [from, to]: [number, number]) =>
    l.occupiedDays === 0 ? 0 : !prorated ? 1 : prefix ? prefix[to + 1] - prefix[from] : l.occupiedDays;
  const dayWeights = lines.map((l, i) => weightOf(l, ranges[i]));
  const fullWeight = !prorated ? 1 : prefix ? prefix[period] : period;
  // A unit's only line counts for the whole period in every unit's total; an occupancy for its days.
  const allWeights = lines.map((l, i) => (l.occupancy === null ? fullWeight : dayWeights[i]));
  const gapWeights = new Array<number>(unitCount).fill(0);
  const turnedOver = new Set<number>();
  lines.forEach((l, i) => {
    if (l.occupancy === null) return;
    turnedOver.add(unitOf[i]);
    gapWeights[unitOf[i]] -= dayWeights[i];
  });
  for (const u of turnedOver) gapWeights[u] += fullWeight;
  if (prefix) lines.forEach((l, i) => (l.occupiedWh = l.occupiedDays === 0 ? 0 : prefix[ranges[i][1] + 1] - prefix[ranges[i][0]]));
  return { prorated, dayWeights, fullWeight, allWeights, gapWeights };
}
