import type { MonthPlan, TariffPlan } from './plan';
import { MID, OFF, ON } from './plan';
import { apportion } from './load-shape';
import { CALENDAR_YEAR, MONTH_NAMES, WEEKDAY_DAYS, WEEKEND_DAYS } from './calendar';
import { formatMilli, toMilli } from './money';
import { BillingError, type UsageProfile } from './types';
import type { BillBuilder } from './builder';

const BUCKETS = [
  { key: 'on_peak_kwh', label: 'on-peak' },
  { key: 'mid_peak_kwh', label: 'mid-peak' },
  { key: 'off_peak_kwh', label: 'off-peak' },
] as const;

/** A profile agrees with usage_kwh when the totals differ by at most 0.01 kWh. */
const PROFILE_TOLERANCE_MILLI = 10;

/** The profile's buckets in Wh (on, mid, off), after checking them against usage_kwh and the month's periods. */
export function checkProfile(
  plan: TariffPlan,
  mp: MonthPlan,
  profile: UsageProfile,
  usageMilli: number,
  tariffId: string,
): [number, number, number] {
  const buckets: [number, number, number] = [
    toMilli(profile.onPeakKwh ?? 0),
    toMilli(profile.midPeakKwh ?? 0),
    toMilli(profile.offPeakKwh ?? 0),
  ];
  const sum = buckets[ON] + buckets[MID] + buckets[OFF];
  if (Math.abs(sum - usageMilli) > PROFILE_TOLERANCE_MILLI) {
    throw new BillingError(
      'profile_total',
      `usage_profile adds up to ${formatMilli(sum)} kWh but usage_kwh is ${formatMilli(usageMilli)} (they must agree within 0.01 kWh)`,
      'usage_profile',
    );
  }
  if (plan.timeDifferentiated) {
    for (let k = ON; k <= OFF; k++) {
      if (buckets[k] > 0 && !mp.hasBucket[k]) {
        throw new BillingError(
          'profile_period',
          `usage_profile.${BUCKETS[k].key} is ${formatMilli(buckets[k])} kWh but tariff ${tariffId} has no ${BUCKETS[k].label} period in ${MONTH_NAMES[mp.month0]}`,
          `usage_profile.${BUCKETS[k].key}`,
        );
      }
    }
  }
  return buckets;
}

function shareText(plan: TariffPlan, mp: MonthPlan, shares: number[]): string {
  const parts = mp.energyPeriods.map((p, i) => `${plan.energy?.[p].name} ${(shares[i] * 100).toFixed(1)}%`);
  const m = mp.month0;
  return (
    `usage_kwh split over the tariff's ${MONTH_NAMES[m]} periods with ${plan.shape.description}, ` +
    `on the ${CALENDAR_YEAR} calendar (${WEEKDAY_DAYS[m]} weekdays, ${WEEKEND_DAYS[m]} weekend days and holidays): ${parts.join(', ')}`
  );
}

/**
 * kWh (in Wh) of each active energy period of the month, parallel to mp.energyPeriods.
 *
 * Mapping rules of a usage profile, for a tariff whose periods are priced
 * differently in some month ("time-differentiated"): the month's periods are
 * ranked by their first-tier price; the highest price level is on-peak, the
 * lowest off-peak, every level between them mid-peak (a month with one price
 * level has only off-peak). A bucket's kWh go to its periods; several periods
 * in one bucket share it by the load shape. For a tariff priced the same in
 * every hour the profile only has to add up, and usage_kwh is billed.
 *
 * Without a profile, usage_kwh is split over the month's periods with the
 * sector's typical load shape laid over the tariff's own schedule; the shares
 * are added to the assumptions.
 */
export function allocateUsage(
  b: BillBuilder,
  plan: TariffPlan,
  mp: MonthPlan,
  usageMilli: number,
  profile: [number, number, number] | null,
): number[] {
  const n = mp.energyPeriods.length;
  const out = new Array<number>(n).fill(0);
  if (n === 0) return out;
  if (profile && plan.timeDifferentiated) {
    const weights = new Array<number>(n);
    const part = new Array<number>(n);
    for (let k = ON; k <= OFF; k++) {
      if (profile[k] === 0) continue;
      let inBucket = 0;
      let shapeSum = 0;
      for (let i = 0; i < n; i++) {
        const w = mp.bucket[i] === k ? (mp.shapeShares as number[])[i] : 0;
        weights[i] = w;
        shapeSum += w;
        if (mp.bucket[i] === k) inBucket++;
      }
      if (inBucket === 1) {
        out[mp.bucket.indexOf(k)] += profile[k];
        continue;
      }
      if (shapeSum === 0) for (let i = 0; i < n; i++) weights[i] = mp.bucket[i] === k ? (mp.hourShares as number[])[i] : 0;
      apportion(profile[k], weights, part);
      for (let i = 0; i < n; i++) out[i] += part[i];
      b.assumptions.push(
        `usage_profile.${BUCKETS[k].key} shared between the tariff's ${BUCKETS[k].label} periods of ${MONTH_NAMES[mp.month0]} with ${plan.shape.description}`,
      );
    }
    return out;
  }
  if (n === 1) {
    out[0] = usageMilli;
    return out;
  }
  const shares = mp.shapeShares as number[];
  apportion(usageMilli, shares, out);
  if (usageMilli > 0) {
    mp.shareText ??= shareText(plan, mp, shares);
    b.assumptions.push(mp.shareText);
  }
  return out;
}
