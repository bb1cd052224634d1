import { MONTH_NAMES } from '../pricing/engine/calendar';
import { usageOf, type EnergyTier, type EnergyTierUnit, type Schedule12x24, type Tariff, type TariffSource } from './tariff.model';
import { monthsOfPeriod, seasonOf } from './urdb.periods';

/** API shapes of a tariff (its summary and detail in /openapi.json; rate items add their tier fields). */
export interface TariffSummary {
  id: string;
  name: string;
  utility_id: string;
  utility_name: string;
  state: string | null;
  sector: string;
  rate_type: string;
  has_tou: boolean;
  has_demand: boolean;
  has_net_metering: boolean;
  effective_date: string | null;
  description: string;
  service_type: string;
  voltage: string | null;
  purpose: string;
  source: TariffSource;
  source_updated_at: string | null;
}

/**
 * Electric tariffs state rate_per_kwh and tier_max_kwh; gas, water and sewer ones rate_per_unit and tier_max in `unit`.
 * The tiers of a period with a bound that is not plain kWh of the month (per day, per kW of demand) add the bound's
 * unit and the band in words (`tierBounds`).
 */
export type EnergyRateItem = {
  period: string;
  months: number[];
  hours: string;
  days: string;
  tier: number;
  tier_max_unit?: EnergyTierUnit | null;
  bound?: string;
} & ({ rate_per_kwh: number; tier_max_kwh: number | null } | { unit: string; rate_per_unit: number; tier_max: number | null });

export interface DemandRateItem {
  period: string;
  months: number[];
  type: 'facility' | 'tou' | 'coincident';
  /** When a time-of-use or coincident-peak demand period applies (facility demand applies all month). */
  hours?: string;
  days?: string;
  rate_per_kw: number;
  tier: number;
  tier_max_kw: number | null;
}

const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;

/** Hours of the day as ranges, e.g. "00:00-06:00, 22:00-24:00". */
export function hoursText(hours: ReadonlySet<number>): string {
  const ranges: string[] = [];
  for (let h = 0; h < 24; h++) {
    if (!hours.has(h)) continue;
    let end = h;
    while (end + 1 < 24 && hours.has(end + 1)) end++;
    ranges.push(`${hh(h)}-${hh(end + 1)}`);
    h = end;
  }
  return ranges.join(', ');
}

function hoursOf(period: number, schedule: Schedule12x24): Set<number> {
  const hours = new Set<number>();
  for (const row of schedule)
    row.forEach((p, h) => {
      if (p === period) hours.add(h);
    });
  return hours;
}

/**
 * When a period applies: `days` is `all`, `weekdays` or `weekends`; `hours`
 * the union over its months. If weekday and weekend hours differ both are
 * given ("weekdays 16:00-21:00; weekends 00:00-24:00").
 */
export function periodTiming(period: number, weekday: Schedule12x24, weekend: Schedule12x24): { days: string; hours: string } {
  const wd = hoursOf(period, weekday);
  const we = hoursOf(period, weekend);
  if (wd.size && !we.size) return { days: 'weekdays', hours: hoursText(wd) };
  if (!wd.size && we.size) return { days: 'weekends', hours: hoursText(we) };
  const a = hoursText(wd);
  const b = hoursText(we);
  return { days: 'all', hours: a === b ? a : `weekdays ${a}; weekends ${b}` };
}

/** The summary columns of a tariff (a Tariff or a search row). */
export interface SummarySource {
  id: string;
  name: string;
  utilityId: string;
  utilityName: string;
  state: string | null;
  sector: string;
  rateType: string;
  hasTou: boolean;
  hasDemand: boolean;
  hasNetMetering: boolean;
  effectiveDate: string | null;
  description: string;
  serviceType: string;
  voltage: string | null;
  purpose: string;
  /** Where the row came from; absent on a bundled row (the normaliser's own output). */
  source?: TariffSource;
  /** When a refresh stored the record (or a custom version was created); absent or null on bundled rows. */
  sourceUpdatedAt?: string | null;
}

type PlainColumn =
  'id' | 'name' | 'utilityId' | 'utilityName' | 'state' | 'hasTou' | 'hasDemand' | 'hasNetMetering' | 'effectiveDate' | 'description';

/**
 * The summary columns a stored tariff row carries as they are (the enumerated ones each reader types
 * itself), read one by one into a fresh object: the tariff repository and the search catalog read a
 * row through it.
 */
export function plainSummaryColumns<T extends Pick<SummarySource, PlainColumn> & { expirationDate: string | null }>(
  r: T,
): Pick<T, PlainColumn | 'expirationDate'> {
  return {
    id: r.id,
    name: r.name,
    utilityId: r.utilityId,
    utilityName: r.utilityName,
    state: r.state,
    hasTou: r.hasTou,
    hasDemand: r.hasDemand,
    hasNetMetering: r.hasNetMetering,
    effectiveDate: r.effectiveDate,
    expirationDate: r.expirationDate,
    description: r.description,
  };
}

export function toSummary(t: SummarySource): TariffSummary {
  return {
    id: t.id,
    name: t.name,
    utility_id: t.utilityId,
    utility_name: t.utilityName,
    state: t.state,
    sector: t.sector,
    rate_type: t.rateType,
    has_tou: t.hasTou,
    has_demand: t.hasDemand,
    has_net_metering: t.hasNetMetering,
    effective_date: t.effectiveDate,
    description: t.description,
    service_type: t.serviceType,
    voltage: t.voltage,
    purpose: t.purpose,
    source: t.source ?? 'bundled',
    source_updated_at: t.sourceUpdatedAt ?? null,
  };
}

/** "180 kWh per kW of billing demand", "13.5 kWh a day (times the days of the month)", "3000 kWh a month": a tier bound in words. */
function boundWords(max: number, unit: EnergyTierUnit): string {
  switch (unit) {
    case 'kWh daily':
      return `${max} kWh a day (times the days of the month)`;
    case 'kWh/kW':
      return `${max} kWh per kW of billing demand`;
    case 'kWh/kVA':
      return `${max} kWh per kVA of billing demand`;
    default:
      return `${max} kWh a month`;
  }
}

/**
 * The unit of each tier's bound and the band of the month's kWh it covers, in words, for a period whose bounds
 * are not all plain kWh of the month (URDB "kWh daily", "kWh/kW" hours-use, "kWh/kVA"); null for any other
 * period, whose tier_max_kwh says it all. "up to 180 kWh per kW of billing demand", "above 180 and up to 360 kWh
 * per kW of billing demand", "above 360 kWh per kW of billing demand"; a bound in another unit than the one
 * before it is named in full ("above 3000 kWh a month and up to 200 kWh per kW of billing demand").
 */
export function tierBounds(tiers: EnergyTier[]): Array<{ tier_max_unit: EnergyTierUnit | null; bound: string }> | null {
  if (!tiers.some((tier, i) => i < tiers.length - 1 && tier.max !== null && tier.unit !== 'kWh')) return null;
  return tiers.map((tier, i) => {
    const prev = i > 0 ? tiers[i - 1] : null;
    const max = i < tiers.length - 1 ? tier.max : null;
    let bound: string;
    if (prev === null || prev.max === null) bound = max === null ? 'all kWh' : `up to ${boundWords(max, tier.unit)}`;
    else if (max === null) bound = `above ${boundWords(prev.max, prev.unit)}`;
    else if (prev.unit === tier.unit) bound = `above ${prev.max} and up to ${boundWords(max, tier.unit)}`;
    else bound = `above ${boundWords(prev.max, prev.unit)} and up to ${boundWords(max, tier.unit)}`;
    return { tier_max_unit: max === null ? null : tier.unit, bound };
  });
}

function energyRates(t: Tariff): EnergyRateItem[] {
  const e = t.structure.energy;
  if (!e) return [];
  const { unit } = usageOf(t);
  return e.periods.flatMap((tiers, p) => {
    const months = monthsOfPeriod(p, e.weekday, e.weekend).map((m) => m + 1);
    if (months.length === 0) return [];
    const timing = periodTiming(p, e.weekday, e.weekend);
    const bounds = tierBounds(tiers);
    return tiers.map((tier, i): EnergyRateItem => {
      const where = { period: e.periodNames[p], months, hours: timing.hours, days: timing.days };
      return unit === 'kWh'
        ? { ...where, rate_per_kwh: tier.rate, tier: i + 1, tier_max_kwh: tier.max, ...bounds?.[i] }
        : { ...where, unit, rate_per_unit: tier.rate, tier: i + 1, tier_max: tier.max, ...bounds?.[i] };
    });
  });
}

/** The rows of a demand charge by time of day (time-of-use or coincident): each period's tiers, with its months, days and hours. */
function scheduledDemandRates(
  type: 'tou' | 'coincident',
  periods: Array<Array<{ rate: number; max: number | null }>>,
  periodNames: string[],
  weekday: Schedule12x24,
  weekend: Schedule12x24,
): DemandRateItem[] {
  return periods.flatMap((tiers, p) => {
    const months = monthsOfPeriod(p, weekday, weekend).map((m) => m + 1);
    if (months.length === 0) return [];
    const timing = periodTiming(p, weekday, weekend);
    return tiers.map((tier, i): DemandRateItem => ({
      period: periodNames[p],
      months,
      type,
      hours: timing.hours,
      days: timing.days,
      rate_per_kw: tier.rate,
      tier: i + 1,
      tier_max_kw: tier.max,
    }));
  });
}

function demandRates(t: Tariff): DemandRateItem[] {
  const items: DemandRateItem[] = [];
  const flat = t.structure.demandFlat;
  if (flat) {
    flat.periods.forEach((tiers, p) => {
      const months = flat.months.flatMap((v, m) => (v === p ? [m] : []));
      if (months.length === 0) return;
      const period = flat.periods.length === 1 ? 'all_year' : seasonOf(months);
      tiers.forEach((tier, i) =>
        items.push({
          period,
          months: months.map((m) => m + 1),
          type: 'facility',
          rate_per_kw: tier.rate,
          tier: i + 1,
          tier_max_kw: tier.max,
        }),
      );
    });
  }
  const tou = t.structure.demandTou;
  if (tou) items.push(...scheduledDemandRates('tou', tou.periods, tou.periodNames, tou.weekday, tou.weekend));
  const coincident = t.structure.demandCoincident;
  // One schedule for every day: the same rows stand for weekdays and weekends.
  if (coincident)
    items.push(...scheduledDemandRates('coincident', coincident.periods, coincident.periodNames, coincident.schedule, coincident.schedule));
  return items;
}

/** Riders per unit of usage, each with the months whose bills carry it (rate_per_unit and unit on gas, water and sewer tariffs). */
function riders(t: Tariff) {
  const { unit } = usageOf(t);
  const rate = (r: number) => (unit === 'kWh' ? { rate_per_kwh: r } : { unit, rate_per_unit: r });
  const fuel = (t.structure.fuelAdjustmentsMonthly ?? []).map((r, m) => ({
    name: `Fuel adjustment (${MONTH_NAMES[m]})`,
    ...rate(r),
    months: [m + 1],
    description: `Monthly fuel cost adjustment published with the tariff, charged per kWh on bills for ${MONTH_NAMES[m]}.`,
  }));
  const own = (t.structure.riders ?? []).map((r) => ({
    name: r.name,
    ...rate(r.rate),
    months: r.months,
    description: `Charged per ${unit} of usage on bills for ${r.months.length === 12 ? 'every month' : r.months.map((m) => MONTH_NAMES[m - 1]).join(', ')}.`,
  }));
  return [...fuel, ...own];
}

export function toDetail(t: Tariff) {
  return {
    ...toSummary(t),
    expiration_date: t.expirationDate,
    // Catalog tariffs only (custom tariffs have versions instead).
    ...(t.supersededBy !== undefined ? { superseded_by: t.supersededBy } : {}),
    eligibility: t.eligibility,
    applicability: {
      demand_kw_min: t.applicability.demandKwMin,
      demand_kw_max: t.applicability.demandKwMax,
      usage_kwh_min: t.applicability.usageKwhMin,
      usage_kwh_max: t.applicability.usageKwhMax,
      voltage_category: t.applicability.voltageCategory,
      phase_wiring: t.applicability.phaseWiring,
    },
    energy_rates: energyRates(t),
    demand_rates: demandRates(t),
    fixed_charges: [
      ...t.structure.fixedCharges.map((c) => ({ name: c.name, amount: c.amount, frequency: c.frequency })),
      ...(t.structure.additionalMeterCharge
        ? [{ name: 'Charge per additional meter (not in bills: one meter assumed)', ...t.structure.additionalMeterCharge }]
        : []),
    ],
    riders: riders(t),
    utility_type: usageOf(t).utilityType,
    unit: usageOf(t).unit,
    minimum_charge: t.structure.minimumCharge
      ? { amount: t.structure.minimumCharge.amount, frequency: t.structure.minimumCharge.frequency }
      : null,
    source_url: t.sourceUrl,
    last_updated: t.lastUpdated,
  };
}
