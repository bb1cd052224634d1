/**
 * What a calculation's proration counts days by (README "Interval proration", issue 50): an
 * electric bill of a property whose whole-building electric meter has a reading for every
 * interval of every day of the period weighs each day by its metered energy; anything else counts
 * days equally, and an electric bill says why.
 */
import type { Db } from '../../platform/db/client';
import { fromScaledInteger } from '../../platform/money';
import { MAX_INTERVAL_RANGE_DAYS, wholeBuildingDailyEnergy, type PropertyClock } from '../meters/public';
import { periodDays } from './occupancy';

/** As the answer's allocation_basis states it. */
export type TimeBasisAnswer = { basis: 'intervals'; meter_id: string; period_kwh: number } | { basis: 'days'; basis_reason?: string };

export interface TimeBasis {
  answer: TimeBasisAnswer;
  /** The weight of each day of the period (its Wh) for the allocator; null: days count equally. */
  dailyWeights: number[] | null;
}

const days = (reason?: string): TimeBasis => ({
  answer: reason ? { basis: 'days', basis_reason: reason } : { basis: 'days' },
  dailyWeights: null,
});

/** The daily weights of a calculation, or days with the reason (electric bills only say one). */
export async function timeBasisOf(db: Db, property: PropertyClock, utilityType: string, start: string, end: string): Promise<TimeBasis> {
  if (utilityType !== 'electric') return days();
  if (periodDays(start, end) > MAX_INTERVAL_RANGE_DAYS) {
    return days(`interval readings are read for periods of at most ${MAX_INTERVAL_RANGE_DAYS} days`);
  }
  const energy = await wholeBuildingDailyEnergy(db, property, start, end);
  if (energy.meters.length === 0) {
    return days('no whole-building electric meter of the property has interval readings in the period');
  }
  if (energy.meters.length > 1) {
    return days(
      `${energy.meters.length} whole-building electric meters have interval readings in the period (${energy.meters.map((m) => m.meterId).join(', ')}); intervals are used with one master meter`,
    );
  }
  const [meter] = energy.meters;
  const firstDay = (k: number) => new Date(Date.parse(`${start}T00:00:00Z`) + k * 86_400_000).toISOString().slice(0, 10);
  const missing = meter.dailyWh.flatMap((wh, k) => (wh === null ? [k] : []));
  if (missing.length > 0) {
    return days(
      `meter ${meter.meterId} lacks readings on ${missing.length} of the period's ${meter.dailyWh.length} days (the first: ${firstDay(missing[0])}, ${energy.zone})`,
    );
  }
  const empty = meter.dailyWh.findIndex((wh) => wh !== null && wh <= 0);
  if (empty >= 0) return days(`meter ${meter.meterId} recorded no energy on ${firstDay(empty)}`);
  const weights = meter.dailyWh as number[];
  const wh = weights.reduce((s, w) => s + w, 0);
  return {
    answer: { basis: 'intervals', meter_id: meter.meterId, period_kwh: fromScaledInteger(BigInt(wh), 3) },
    dailyWeights: weights,
  };
}
