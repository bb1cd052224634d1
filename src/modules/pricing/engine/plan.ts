import {
  NO_APPLICABILITY,
  usageOf,
  type ChargeFrequency,
  type EnergyTierUnit,
  type Schedule12x24,
  type Tariff,
  type TariffStructure,
} from '../../tariffs/tariff.model';
import { DAYS_IN_MONTH } from './calendar';
import { toMilli, toPrice, type Price } from './money';
import { tariffNotices } from './notices';
import { seasonNames } from './season';
import { monthShares, selectShape, type ShapeChoice } from './load-shape';
import type { LoadShapeSet } from './types';
import type { BillingPeriodLength, MonthCount } from './period-length';

/** The demand window when the record publishes none, minutes (the common 15-minute demand interval). */
export const DEFAULT_DEMAND_WINDOW_MINUTES = 15;

export interface EnergyTierPlan {
  max: number | null;
  unit: EnergyTierUnit;
  price: Price;
  sell: Price | null;
}

export interface DemandTierPlan {
  /** Upper bound in the demand unit; null for the last tier. */
  max: number | null;
  price: Price;
}

export interface PeriodPlan<T> {
  name: string;
  tiers: T[];
}

export interface DemandUnit {
  /** "kW", "kVA" or "hp". */
  label: string;
  /** Charged per day of the month ("kW daily"). */
  daily: boolean;
}

export interface ChargePlan {
  name: string;
  price: Price;
  frequency: ChargeFrequency;
}

/** Bucket of a usage profile an energy period takes. */
export const ON = 0;
export const MID = 1;
export const OFF = 2;

export interface MonthPlan {
  month0: number;
  /** Days the bill covers: the month's, or a billing period's (per-day charges and bounds). */
  days: number;
  /** Months the bill covers when it prices a billing period (period-length.ts); absent: one month. */
  months?: MonthCount;
  season: string;
  /** Energy periods in use this month (weekday or weekend), ascending. */
  energyPeriods: number[];
  /** Profile bucket of each entry of energyPeriods. */
  bucket: number[];
  /** Which buckets the month has. */
  hasBucket: [boolean, boolean, boolean];
  /**
   * Every active energy period of the month publishes the same tier bounds
   * (count, bound and unit of each bounded tier): the month's tiers are then one
   * set of bands over the month's total kWh, shared by the periods.
   */
  sharedTiers: boolean;
  touDemandPeriods: number[];
  /** Coincident-peak demand periods active in the month, ascending. */
  coincidentPeriods: number[];
  /** Flat (facility) demand period of the month, -1 without one. */
  flatDemandPeriod: number;
  fuel: Price | null;
  /** The tariff's named riders (UsageRider) that apply this month, per unit of usage. */
  riders: Array<{ name: string; price: Price }>;
  /** Load-shape share of each entry of energyPeriods (sum 1); computed on first use. */
  shapeShares?: number[];
  /** Share of the month's hours (weekday and weekend days) of each entry of energyPeriods. */
  hourShares?: number[];
  /** The load-shape split as an assumption sentence; built on first use. */
  shareText?: string;
}

export interface TariffPlan {
  /** The usage unit line items state ("kWh", "therm", "kgal", ...). */
  unit: string;
  energy: PeriodPlan<EnergyTierPlan>[] | null;
  energyWeekday: Schedule12x24 | null;
  energyWeekend: Schedule12x24 | null;
  touDemand: PeriodPlan<DemandTierPlan>[] | null;
  touDemandSchedules: { weekday: Schedule12x24; weekend: Schedule12x24 } | null;
  coincidentSchedule: Schedule12x24 | null;
  /** Minutes a demand is averaged over (URDB `demandwindow`, else 15): read from interval data. */
  demandWindowMinutes: number;
  touDemandUnit: DemandUnit;
  flatDemand: PeriodPlan<DemandTierPlan>[] | null;
  flatDemandUnit: DemandUnit;
  coincident: PeriodPlan<DemandTierPlan>[] | null;
  coincidentUnit: DemandUnit;
  fixed: ChargePlan[];
  minimum: ChargePlan | null;
  /** demand_kw is required: a non-zero demand charge (TOU, facility or coincident-peak), or energy tiers sized per kW of demand. */
  needsDemand: boolean;
  /** Some month prices its energy periods differently: a usage profile maps onto on/mid/off buckets. */
  timeDifferentiated: boolean;
  netMetering: boolean;
  realTime: boolean;
  shape: ShapeChoice;
  months: MonthPlan[];
  /** Assumption sentences every bill of the tariff carries (charges it publishes but a bill cannot include). */
  notices: string[];
  /** Applicability limits in thousandths (Wh, W); null where the tariff publishes none. */
  limits: { usageMin: number | null; usageMax: number | null; demandMin: number | null; demandMax: number | null };
}

function demandUnit(unit: string): DemandUnit {
  const daily = / daily$/.test(unit);
  return { label: daily ? unit.slice(0, -' daily'.length) : unit, daily };
}

function activePeriods(weekday: Schedule12x24, weekend: Schedule12x24, m: number): number[] {
  const seen: number[] = [];
  for (const row of [weekday[m], weekend[m]]) for (const p of row) if (!seen.includes(p)) seen.push(p);
  return seen.sort((a, b) => a - b);
}

/** Buckets by price level of tier 1: highest on-peak, lowest off-peak, any level between mid-peak. */
function bucketsOf(periods: number[], energy: PeriodPlan<EnergyTierPlan>[]): number[] {
  const prices = periods.map((p) => energy[p].tiers[0].price.int / 10 ** energy[p].tiers[0].price.exp);
  const levels = [...new Set(prices)].sort((a, b) => b - a);
  return prices.map((price) => {
    if (levels.length === 1) return OFF;
    const level = levels.indexOf(price);
    return level === 0 ? ON : level === levels.length - 1 ? OFF : MID;
  });
}

/** Bounded tiers of every period in `periods` are alike (same count, bounds and units). */
export function sameTierBounds(periods: number[], energy: PeriodPlan<EnergyTierPlan>[]): boolean {
  const first = energy[periods[0]].tiers;
  return periods.every((p) => {
    const tiers = energy[p].tiers;
    return (
      tiers.length === first.length && tiers.every((t, i) => i === tiers.length - 1 || (t.max === first[i].max && t.unit === first[i].unit))
    );
  });
}

const milliOrNull = (x: number | null) => (x === null ? null : toMilli(x));

/** The twelve month plans of a structure (periods active, profile buckets, seasons), and whether some month is time-differentiated. */
function monthPlansOf(
  s: TariffStructure,
  energy: PeriodPlan<EnergyTierPlan>[] | null,
): { months: MonthPlan[]; timeDifferentiated: boolean } {
  const coincidentSource = s.demandCoincident ?? null;
  const months: MonthPlan[] = [];
  const signatures: string[] = [];
  let timeDifferentiated = false;
  for (let m = 0; m < 12; m++) {
    const energyPeriods = s.energy && energy ? activePeriods(s.energy.weekday, s.energy.weekend, m) : [];
    const bucket = energy ? bucketsOf(energyPeriods, energy) : [];
    if (bucket.some((b) => b !== OFF)) timeDifferentiated = true;
    const touDemandPeriods = s.demandTou ? activePeriods(s.demandTou.weekday, s.demandTou.weekend, m) : [];
    const coincidentPeriods = coincidentSource ? activePeriods(coincidentSource.schedule, coincidentSource.schedule, m) : [];
    const flatDemandPeriod = s.demandFlat ? s.demandFlat.months[m] : -1;
    const fuelRate = s.fuelAdjustmentsMonthly?.[m];
    months.push({
      month0: m,
      days: DAYS_IN_MONTH[m],
      season: '',
      energyPeriods,
      bucket,
      hasBucket: [bucket.includes(ON), bucket.includes(MID), bucket.includes(OFF)],
      sharedTiers: energy !== null && energyPeriods.length > 0 && sameTierBounds(energyPeriods, energy),
      touDemandPeriods,
      coincidentPeriods,
      flatDemandPeriod,
      fuel: fuelRate === undefined || fuelRate === 0 ? null : toPrice(fuelRate),
      riders: (s.riders ?? [])
        .filter((r) => r.months.includes(m + 1) && r.rate !== 0)
        .map((r) => ({ name: r.name, price: toPrice(r.rate) })),
    });
    signatures.push(`${energyPeriods.join(',')}|${touDemandPeriods.join(',')}|${flatDemandPeriod}|${coincidentPeriods.join(',')}`);
  }
  const seasons = seasonNames(signatures);
  months.forEach((mp, m) => {
    mp.season = seasons[m];
  });
  return { months, timeDifferentiated };
}

function buildPlan(tariff: Tariff, shapes: LoadShapeSet): TariffPlan {
  const s = tariff.structure;
  const energy = s.energy
    ? s.energy.periods.map((tiers, p) => ({
        name: s.energy?.periodNames[p] ?? `period_${p + 1}`,
        tiers: tiers.map((t) => ({ max: t.max, unit: t.unit, price: toPrice(t.rate), sell: t.sell === null ? null : toPrice(t.sell) })),
      }))
    : null;
  const demandPeriods = (periods: { max: number | null; rate: number }[][], names: (p: number) => string) =>
    periods.map((tiers, p) => ({ name: names(p), tiers: tiers.map((t) => ({ max: t.max, price: toPrice(t.rate) })) }));
  const touDemand = s.demandTou ? demandPeriods(s.demandTou.periods, (p) => s.demandTou?.periodNames[p] ?? `period_${p + 1}`) : null;
  const flatDemand = s.demandFlat ? demandPeriods(s.demandFlat.periods, (p) => `period_${p + 1}`) : null;
  const coincidentSource = s.demandCoincident ?? null;
  const coincident = coincidentSource
    ? demandPeriods(coincidentSource.periods, (p) => coincidentSource.periodNames[p] ?? `period_${p + 1}`)
    : null;
  const coincidentCharged = !!coincidentSource?.periods.some((p) => p.some((t) => t.rate !== 0));
  // Tariff objects built before applicability existed (none in the stored data once re-imported) read as unlimited.
  const applicability = tariff.applicability ?? NO_APPLICABILITY;
  const kwhPerKw = !!energy?.some((p) => p.tiers.some((t) => t.max !== null && (t.unit === 'kWh/kW' || t.unit === 'kWh/kVA')));

  const { months, timeDifferentiated } = monthPlansOf(s, energy);

  return {
    unit: usageOf(tariff).unit,
    energy,
    energyWeekday: s.energy?.weekday ?? null,
    energyWeekend: s.energy?.weekend ?? null,
    touDemand,
    touDemandSchedules: s.demandTou ? { weekday: s.demandTou.weekday, weekend: s.demandTou.weekend } : null,
    coincidentSchedule: coincidentSource?.schedule ?? null,
    demandWindowMinutes: s.demandWindowMinutes ?? DEFAULT_DEMAND_WINDOW_MINUTES,
    touDemandUnit: demandUnit(s.demandTou?.unit ?? 'kW'),
    flatDemand,
    flatDemandUnit: demandUnit(s.demandFlat?.unit ?? 'kW'),
    coincident,
    coincidentUnit: demandUnit(coincidentSource?.unit ?? 'kW'),
    fixed: s.fixedCharges.map((c) => ({ name: c.name, price: toPrice(c.amount), frequency: c.frequency })),
    minimum: s.minimumCharge
      ? { name: 'Minimum charge', price: toPrice(s.minimumCharge.amount), frequency: s.minimumCharge.frequency }
      : null,
    needsDemand: tariff.hasDemand || kwhPerKw || coincidentCharged,
    timeDifferentiated,
    netMetering: tariff.hasNetMetering,
    realTime: s.realTime || tariff.rateType === 'real_time',
    shape: selectShape(shapes, tariff.sector),
    months,
    notices: [...tariffNotices(s), ...(tariff.notes ?? [])],
    limits: {
      usageMin: milliOrNull(applicability.usageKwhMin),
      usageMax: milliOrNull(applicability.usageKwhMax),
      demandMin: milliOrNull(applicability.demandKwMin),
      demandMax: milliOrNull(applicability.demandKwMax),
    },
  };
}

/**
 * Plans by tariff object: a tariff is never changed once built (a new version or import is a new
 * object), so a plan is never stale, and it goes when its tariff does (decision record 0015).
 */
const plans = new WeakMap<Tariff, { shapes: LoadShapeSet; plan: TariffPlan }>();

/** The tariff's pricing data, built once per tariff object (and load-shape set). */
export function planOf(tariff: Tariff, shapes: LoadShapeSet): TariffPlan {
  const hit = plans.get(tariff);
  if (hit && hit.shapes === shapes) return hit.plan;
  const plan = buildPlan(tariff, shapes);
  plans.set(tariff, { shapes, plan });
  return plan;
}

/** The month plan as a billing period of `period`'s length sees it (the month's own when none). */
export function billingMonthOf(mp: MonthPlan, period: BillingPeriodLength | null | undefined): MonthPlan {
  return period ? { ...mp, days: period.days, months: period.months } : mp;
}

/** Month plan with its load-shape shares filled in. */
export function monthPlanOf(plan: TariffPlan, month0: number): MonthPlan {
  const mp = plan.months[month0];
  if (!mp.shapeShares && plan.energyWeekday && plan.energyWeekend) {
    const shares = monthShares(plan.shape, plan.energyWeekday, plan.energyWeekend, month0, mp.energyPeriods);
    mp.shapeShares = shares.shape;
    mp.hourShares = shares.hours;
  }
  return mp;
}
