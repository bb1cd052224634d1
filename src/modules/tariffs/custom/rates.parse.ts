/**
 * A custom tariff's rates in the shape GET /tariffs/{id} shows them (energy_rates, demand_rates,
 * fixed_charges, riders, minimum_charge) back to the structure the bill engine prices: the inverse
 * of present.ts. Pure. Every problem is reported with its JSON path (`energy_rates.3.tier_max`),
 * so a client can point at the field; nothing is guessed (tariffs README "Custom tariffs").
 */
import type { FieldError } from '../../../platform/http/errors';
import {
  chargesNothing,
  type ChargeFrequency,
  type DemandTier,
  type EnergyTier,
  type TariffStructure,
  type UsageRider,
  type UtilityType,
} from '../tariff.model';
import {
  checkBounds,
  checkMonths,
  groupPeriods,
  MONTH_NAMES,
  RatesProblem,
  schedulesOf,
  WHOLE_DAY,
  type PeriodRow,
  type PeriodRows,
} from './rates.periods';

export { parseHours, type Days } from './rates.periods';

export interface EnergyRateInput extends PeriodRow {
  /** Per unit of the tariff's usage unit; `rate_per_kwh` is the electric spelling of the same. */
  rate_per_unit?: number | null;
  rate_per_kwh?: number | null;
  tier_max?: number | null;
  tier_max_kwh?: number | null;
}

export interface DemandRateInput extends PeriodRow {
  type: 'facility' | 'tou' | 'coincident';
  rate_per_kw: number;
  tier_max_kw?: number | null;
}

export interface RatesInput {
  energy_rates?: EnergyRateInput[] | null;
  demand_rates?: DemandRateInput[] | null;
  fixed_charges?: Array<{ name: string; amount: number; frequency: ChargeFrequency }> | null;
  riders?: Array<{ name: string; rate_per_unit?: number | null; rate_per_kwh?: number | null; months?: number[] | null }> | null;
  minimum_charge?: { amount: number; frequency: ChargeFrequency } | null;
}

const ALL_MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** Per-unit rate of a row: rate_per_unit, or rate_per_kwh on electric tariffs (never both). */
function unitRate(row: { rate_per_unit?: number | null; rate_per_kwh?: number | null }, at: string, type: UtilityType): number {
  const perUnit = row.rate_per_unit ?? null;
  const perKwh = row.rate_per_kwh ?? null;
  if (perUnit !== null && perKwh !== null) throw new RatesProblem(`${at}.rate_per_kwh`, 'give rate_per_unit or rate_per_kwh, not both');
  if (perKwh !== null && type !== 'electric')
    throw new RatesProblem(`${at}.rate_per_kwh`, `a ${type} tariff is priced per its unit: use rate_per_unit`);
  const rate = perUnit ?? perKwh;
  if (rate === null) throw new RatesProblem(`${at}.rate_per_unit`, 'field required');
  return rate;
}

function energyOf(rows: EnergyRateInput[], type: UtilityType, unit: string): TariffStructure['energy'] {
  if (rows.length === 0) return null;
  const periods = groupPeriods(
    rows.map((row, index) => ({ row, index })),
    'energy_rates',
  );
  const tiers: EnergyTier[][] = periods.map((p) => {
    const bounds = p.rows.map(({ row, index }) => {
      if (row.tier_max !== undefined && row.tier_max !== null && row.tier_max_kwh !== undefined && row.tier_max_kwh !== null) {
        throw new RatesProblem(`energy_rates.${index}.tier_max_kwh`, 'give tier_max or tier_max_kwh, not both');
      }
      if (row.tier_max_kwh !== undefined && row.tier_max_kwh !== null && type !== 'electric') {
        throw new RatesProblem(`energy_rates.${index}.tier_max_kwh`, `a ${type} tariff's tiers are bounded in its unit: use tier_max`);
      }
      return row.tier_max ?? row.tier_max_kwh ?? null;
    });
    checkBounds(bounds, (k) => `energy_rates.${p.rows[k].index}.tier_max`, unit);
    return p.rows.map(({ row, index }, k) => ({
      max: bounds[k],
      unit: 'kWh' as const,
      rate: unitRate(row, `energy_rates.${index}`, type),
      sell: null,
    }));
  });
  const { weekday, weekend } = schedulesOf(periods, 'energy_rates', type !== 'electric');
  return { periods: tiers, weekday, weekend, periodNames: periods.map((p) => p.name) };
}

function demandOf(rows: DemandRateInput[], type: UtilityType): Pick<TariffStructure, 'demandFlat' | 'demandTou' | 'demandCoincident'> {
  const none = { demandFlat: null, demandTou: null, demandCoincident: null };
  if (rows.length === 0) return none;
  if (type !== 'electric') throw new RatesProblem('demand_rates', `a ${type} tariff has no demand charges`);
  const tiersOf = (periods: PeriodRows<DemandRateInput>[]): DemandTier[][] =>
    periods.map((p) => {
      const bounds = p.rows.map(({ row }) => row.tier_max_kw ?? null);
      checkBounds(bounds, (k) => `demand_rates.${p.rows[k].index}.tier_max_kw`, 'kW');
      return p.rows.map(({ row }, k) => ({ max: bounds[k], rate: row.rate_per_kw }));
    });
  /** One type's rows by period, with their indices in the whole list for the paths. */
  const group = (kind: DemandRateInput['type']) => {
    const picked = rows.map((row, index) => ({ row, index })).filter((r) => r.row.type === kind);
    return picked.length === 0 ? null : groupPeriods(picked, 'demand_rates');
  };
  const result: Pick<TariffStructure, 'demandFlat' | 'demandTou' | 'demandCoincident'> = { ...none };
  const facility = group('facility');
  if (facility) {
    const months = Array<number>(12).fill(-1);
    facility.forEach((p, index) => {
      const { row, index: rowIndex } = p.rows[0];
      if ((row.hours ?? WHOLE_DAY) !== WHOLE_DAY || (row.days ?? 'all') !== 'all') {
        throw new RatesProblem(
          `demand_rates.${rowIndex}.hours`,
          `facility demand applies to whole months: hours must be ${WHOLE_DAY} and days all`,
        );
      }
      for (const m of row.months) {
        if (months[m - 1] !== -1)
          throw new RatesProblem(
            `demand_rates.${rowIndex}.months`,
            `facility demand periods '${facility[months[m - 1]].name}' and '${p.name}' both cover ${MONTH_NAMES[m - 1]}`,
          );
        months[m - 1] = index;
      }
    });
    const missing = months.indexOf(-1);
    if (missing !== -1)
      throw new RatesProblem(
        'demand_rates',
        `no facility demand period covers ${MONTH_NAMES[missing]}: every month needs a rate (give a 0 rate where nothing is charged)`,
      );
    result.demandFlat = { periods: tiersOf(facility), months, unit: 'kW' };
  }
  const tou = group('tou');
  if (tou) {
    const { weekday, weekend } = schedulesOf(tou, 'demand_rates', false);
    result.demandTou = { periods: tiersOf(tou), weekday, weekend, unit: 'kW', periodNames: tou.map((p) => p.name) };
  }
  const coincident = group('coincident');
  if (coincident) {
    const { weekday, weekend } = schedulesOf(coincident, 'demand_rates', false);
    if (weekday.some((row, m) => row.some((p, h) => weekend[m][h] !== p))) {
      throw new RatesProblem('demand_rates', 'coincident demand periods apply to every day alike: days must be all with one set of hours');
    }
    result.demandCoincident = { periods: tiersOf(coincident), schedule: weekday, unit: 'kW', periodNames: coincident.map((p) => p.name) };
  }
  return result;
}

function ridersOf(rows: NonNullable<RatesInput['riders']>, type: UtilityType): UsageRider[] {
  return rows.map((row, index) => {
    const at = `riders.${index}`;
    const months = row.months ?? ALL_MONTHS;
    checkMonths(months, at);
    return { name: row.name, rate: unitRate(row, at, type), months: [...months].sort((a, b) => a - b) };
  });
}

export type ParsedRates = { ok: true; structure: TariffStructure } | { ok: false; errors: FieldError[] };

/**
 * The structure of a custom tariff's rates for a tariff of `type` priced in `unit`. Usage tiers are
 * cumulative bounds of the month's usage in that unit, as the catalog's kWh tiers are.
 */
export function parseRates(input: RatesInput, type: UtilityType, unit: string): ParsedRates {
  try {
    const structure: TariffStructure = {
      energy: energyOf(input.energy_rates ?? [], type, unit),
      ...demandOf(input.demand_rates ?? [], type),
      fixedCharges: (input.fixed_charges ?? []).map((c) => ({ name: c.name, amount: c.amount, frequency: c.frequency })),
      minimumCharge: input.minimum_charge ? { amount: input.minimum_charge.amount, frequency: input.minimum_charge.frequency } : null,
      fuelAdjustmentsMonthly: null,
      dgRules: null,
      realTime: false,
      additionalMeterCharge: null,
      reactivePowerCharge: null,
      demandRatchet: null,
      riders: ridersOf(input.riders ?? [], type),
    };
    if (chargesNothing(structure)) {
      return { ok: false, errors: [{ field: 'energy_rates', message: 'a tariff needs at least one usage, demand or fixed charge' }] };
    }
    return { ok: true, structure };
  } catch (err) {
    if (err instanceof RatesProblem) return { ok: false, errors: [{ field: err.field, message: err.message }] };
    throw err;
  }
}
