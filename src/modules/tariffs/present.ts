import { MONTH_NAMES } from '../pricing/engine/calendar';
import type { Schedule12x24, Tariff } from './tariff.model';
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
}

export interface EnergyRateItem {
  period: string;
  months: number[];
  hours: string;
  days: string;
  rate_per_kwh: number;
  tier: number;
  tier_max_kwh: number | null;
}

export interface DemandRateItem {
  period: string;
  months: number[];
  type: 'facility' | 'tou' | 'coincident';
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
  for (const row of schedule) row.forEach((p, h) => { if (p === period) hours.add(h); });
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
  id: string; name: string; utilityId: string; utilityName: string; state: string | null; sector: string; rateType: string;
  hasTou: boolean; hasDemand: boolean; hasNetMetering: boolean; effectiveDate: string | null; description: string;
  serviceType: string; voltage: string | null; purpose: string;
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
  };
}

function energyRates(t: Tariff): EnergyRateItem[] {
  const e = t.structure.energy;
  if (!e) return [];
  return e.periods.flatMap((tiers, p) => {
    const months = monthsOfPeriod(p, e.weekday, e.weekend).map((m) => m + 1);
    if (months.length === 0) return [];
    const timing = periodTiming(p, e.weekday, e.weekend);
    return tiers.map((tier, i) => ({
      period: e.periodNames[p], months, hours: timing.hours, days: timing.days,
      rate_per_kwh: tier.rate, tier: i + 1, tier_max_kwh: tier.max,
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
      tiers.forEach((tier, i) => items.push({ period, months: months.map((m) => m + 1), type: 'facility', rate_per_kw: tier.rate, tier: i + 1, tier_max_kw: tier.max }));
    });
  }
  const tou = t.structure.demandTou;
  if (tou) {
    tou.periods.forEach((tiers, p) => {
      const months = monthsOfPeriod(p, tou.weekday, tou.weekend).map((m) => m + 1);
      if (months.length === 0) return;
      tiers.forEach((tier, i) => items.push({ period: tou.periodNames[p], months, type: 'tou', rate_per_kw: tier.rate, tier: i + 1, tier_max_kw: tier.max }));
    });
  }
  const coincident = t.structure.demandCoincident;
  if (coincident) {
    coincident.periods.forEach((tiers, p) => {
      // One schedule for every day: the same rows stand for weekdays and weekends.
      const months = monthsOfPeriod(p, coincident.schedule, coincident.schedule).map((m) => m + 1);
      if (months.length === 0) return;
      tiers.forEach((tier, i) => items.push({
        period: coincident.periodNames[p], months, type: 'coincident', rate_per_kw: tier.rate, tier: i + 1, tier_max_kw: tier.max,
      }));
    });
  }
  return items;
}

function riders(t: Tariff) {
  const f = t.structure.fuelAdjustmentsMonthly;
  if (!f) return [];
  return f.map((rate, m) => ({
    name: `Fuel adjustment (${MONTH_NAMES[m]})`,
    rate_per_kwh: rate,
    description: `Monthly fuel cost adjustment published with the tariff, charged per kWh on bills for ${MONTH_NAMES[m]}.`,
  }));
}

export function toDetail(t: Tariff) {
  return {
    ...toSummary(t),
    expiration_date: t.expirationDate,
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
    source_url: t.sourceUrl,
    last_updated: t.lastUpdated,
  };
}
