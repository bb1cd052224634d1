/**
 * A property's location-based emissions inventory for one calendar year, from its meters' bills and,
 * where they cover a whole month, an electric meter's interval readings.
 * Pure: plain objects in, plain objects out (README "How a year's emissions are computed").
 *
 * Each bill's usage is spread over the calendar months of its period in proportion to days, as the
 * analytics calendarise cost and usage (analytics/calendarise.calc.ts, ENERGY STAR Portfolio
 * Manager's rule); only the months of the year are kept. An electric meter's month whose every
 * interval has a reading takes the readings' sum instead of its bills' calendarised share: each
 * meter-month has one source. A month's emissions are its usage times the factor of the meter's
 * utility type; a figure is rounded to the kilogram (0.001 t) only when shown, sums are taken
 * before rounding.
 */
import { calendariseBill } from '../analytics/calendarise.calc';
import { monthKey } from '../analytics/months';
import { UNIT_FAMILIES, type MeterUtilityType } from '../meters/units';
import type { EnergyByType } from './ll97.calc';
import { districtSteamTons, electricityTons, fuelOilTons, naturalGasTons, UNSUPPORTED_REASONS } from './factors';

export interface InventoryMeter {
  id: string;
  name: string;
  utilityType: MeterUtilityType;
}

export interface InventoryBill {
  meterId: string;
  /** YYYY-MM-DD, both ends billed. */
  periodStart: string;
  periodEnd: string;
  /** Usage in thousandths of the utility type's common unit (meters/units.ts usageMilliOf); null when the bill has none. */
  usageMilli: number | null;
}

/**
 * An electric meter's calendar month whose every interval has a reading (the meters module's
 * interval reader says so, in the property's time zone): the readings' sum, Wh (= thousandths of
 * a kWh, the usageMilli of a kWh bill).
 */
export interface IntervalMonth {
  meterId: string;
  /** YYYY-MM */
  month: string;
  wh: number;
}

/** Where a meter-month's usage comes from: its bills calendarised, or its interval readings. */
export type MonthBasis = 'bills' | 'intervals';

/** The grid factor of the property's ZIP code, or why there is none. */
export type GridFactor = { subregion: string; lbPerMwh: number } | { subregion: null; reason: string };

export interface MeterMonth {
  /** YYYY-MM */
  month: string;
  /** In the type's common unit. */
  usage: number;
  /** Null on a meter that is not counted. */
  tco2e: number | null;
  basis: MonthBasis;
}

export interface MeterInventory {
  meterId: string;
  name: string;
  utilityType: MeterUtilityType;
  /** The type's common unit (kWh, therms, ...). */
  unit: string;
  /** False when no factor applies; `reason` says why and tco2e is null. */
  counted: boolean;
  reason: string | null;
  usage: number;
  tco2e: number | null;
  /** Bills reaching into the year that carry no usage: they add nothing. */
  billsWithoutUsage: number;
  /** Months of the year whose usage is the interval readings' sum (the others are its bills'). */
  monthsFromIntervals: number;
  months: MeterMonth[];
}

export interface YearInventory {
  year: number;
  tco2e: number;
  /** Every month of the year, January first, with the counted meters' emissions (0 when nothing was billed). */
  months: Array<{ month: string; tco2e: number }>;
  meters: MeterInventory[];
}

/** The year's energy by utility type, its meters' usage summed (common units): what the building-performance standards read. */
export function energyByType(inv: Pick<YearInventory, 'meters'>): EnergyByType {
  const energy: EnergyByType = {};
  for (const m of inv.meters) energy[m.utilityType] = (energy[m.utilityType] ?? 0) + m.usage;
  return energy;
}

/** Metric tons CO2e of `usage` (the type's common unit), or the reason the type has no factor. */
export function tonsOf(type: MeterUtilityType, usage: number, grid: GridFactor): { tco2e: number } | { reason: string } {
  if (type === 'electric') {
    if (grid.subregion === null) return { reason: grid.reason };
    return { tco2e: electricityTons(usage, grid.lbPerMwh) };
  }
  if (type === 'gas') return { tco2e: naturalGasTons(usage) };
  if (type === 'steam') return { tco2e: districtSteamTons(usage) };
  if (type === 'fuel_oil_2' || type === 'fuel_oil_4') return { tco2e: fuelOilTons(type, usage) };
  return { reason: UNSUPPORTED_REASONS[type] };
}

/** Rounded to the kilogram, as every figure is shown (-0 shown as 0). */
export const roundTons = (t: number) => Math.round(t * 1000) / 1000 + 0;

/** The month index (year x 12 + month - 1) of a YYYY-MM. */
const monthIndexOf = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;

/**
 * The year's inventory. `readings` are electric meters' months covered by interval readings: such a
 * month's usage is their sum, replacing the calendarised share of the meter's bills for that month
 * (the months not covered keep the bills'); other types' and other years' months are ignored.
 */
export function yearInventory(
  year: number,
  meters: InventoryMeter[],
  bills: InventoryBill[],
  grid: GridFactor,
  readings: readonly IntervalMonth[] = [],
): YearInventory {
  const window = { from: year * 12, to: year * 12 + 11 };
  const monthTotals = new Array<number>(12).fill(0);
  const result: MeterInventory[] = [];
  for (const meter of meters) {
    const usageByMonth = new Map<number, number>();
    let billsWithoutUsage = 0;
    for (const bill of bills) {
      if (bill.meterId !== meter.id) continue;
      if (bill.usageMilli === null) {
        billsWithoutUsage += 1;
        continue;
      }
      const shares = calendariseBill(
        { periodStart: bill.periodStart, periodEnd: bill.periodEnd, cents: 0, usageMilli: bill.usageMilli },
        window,
      );
      for (const s of shares) usageByMonth.set(s.month, (usageByMonth.get(s.month) ?? 0) + s.usageMilli);
    }
    const fromIntervals = new Set<number>();
    if (meter.utilityType === 'electric') {
      for (const r of readings) {
        const m = monthIndexOf(r.month);
        if (r.meterId !== meter.id || m < window.from || m > window.to || fromIntervals.has(m)) continue;
        fromIntervals.add(m);
        usageByMonth.set(m, r.wh);
      }
    }
    if (usageByMonth.size === 0 && billsWithoutUsage === 0) continue;
    const months = [...usageByMonth.entries()].sort((a, b) => a[0] - b[0]);
    const totalUsage = months.reduce((sum, [, milli]) => sum + milli, 0) / 1000;
    const probe = tonsOf(meter.utilityType, 1, grid);
    const counted = 'tco2e' in probe;
    let meterTons = 0;
    const meterMonths: MeterMonth[] = months.map(([m, milli]) => {
      const usage = milli / 1000;
      const t = counted ? (tonsOf(meter.utilityType, usage, grid) as { tco2e: number }).tco2e : 0;
      meterTons += t;
      if (counted) monthTotals[m - window.from] += t;
      return { month: monthKey(m), usage, tco2e: roundTons(t), basis: fromIntervals.has(m) ? 'intervals' : 'bills' };
    });
    result.push({
      meterId: meter.id,
      name: meter.name,
      utilityType: meter.utilityType,
      unit: UNIT_FAMILIES[meter.utilityType].common,
      counted,
      reason: counted ? null : (probe as { reason: string }).reason,
      usage: totalUsage,
      tco2e: counted ? roundTons(meterTons) : null,
      billsWithoutUsage,
      monthsFromIntervals: fromIntervals.size,
      months: counted ? meterMonths : meterMonths.map((m) => ({ ...m, tco2e: null })),
    });
  }
  return {
    year,
    tco2e: roundTons(monthTotals.reduce((a, b) => a + b, 0)),
    months: monthTotals.map((t, i) => ({ month: monthKey(window.from + i), tco2e: roundTons(t) })),
    meters: result,
  };
}
