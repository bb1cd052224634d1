/**
 * What-if (README "What-if"): a property's bills with the usage a named change leaves, in the
 * order the changes are given. Pure: plain objects in, plain objects out; the service prices them.
 *
 * - `cut`: every bill of the property's meters of a utility type, and any load electrified onto
 *   an electric meter before it, falls by `percent`.
 * - `electrify`: a gas meter's therms become kWh on an electric meter, for the same days:
 *   kWh = therms x 100 kBtu / 3.412 kBtu per kWh (Portfolio Manager's conversions, meters/units.ts)
 *   x the gas equipment's efficiency / the electric equipment's (1.0 resistance, a heat pump's
 *   COP, e.g. 3.0): the same useful heat, delivered by electricity. The gas meter's bills fall to
 *   zero usage. The kWh of each gas bill is a load over that bill's period (what emissions and
 *   building performance calendarise), shared among the electric meter's bills by the days of the
 *   load each covers (what is priced); days no electric bill covers are not priced (`unpricedWh`).
 *
 * Usage is in thousandths of the type's common unit (Wh, thousandths of a therm), as integers.
 */
import { roundDiv } from '../../platform/money';
import { dayNumber } from '../../platform/dates';
import type { MeterUtilityType } from '../meters/units';
import { calendariseBill } from '../analytics/calendarise.calc';
import type { IntervalMonth } from './emissions.calc';

/** kBtu per therm and per kWh (Portfolio Manager, "Thermal Energy Conversions"; meters/units.ts). */
export const KBTU_PER_THERM = 100;
export const KBTU_PER_KWH = 3.412;

/** What every what-if answer says of its rules. */
export const WHAT_IF_NOTES = [
  'Changes apply in the order given, each to the usage the previous ones left. Energy and emissions are calendarised by days, as ' +
    'GET .../emissions and .../building-performance count them.',
  "Electrify: kWh = therms x 100 kBtu / 3.412 kBtu per kWh (Portfolio Manager's conversions) x gas_efficiency / electric_efficiency, " +
    "over each gas bill's days, added to the electric meter's bills covering them; the gas bill keeps only what its tariff charges " +
    'without usage. A fuel oil meter is electrified alike from its kBtu (1 gallon = 138 kBtu of No. 2, 146 of No. 4, 150 of No. 5/6): ' +
    "kWh = kBtu / 3.412 x gas_efficiency (the oil equipment's) / electric_efficiency, and its bills fall to zero usage and cost. " +
    "Demand: an electrification's added_demand_kw (default 0) is added to the billed demand of each electric bill that carries its " +
    'load, once per bill (several electrifications on one bill: their peaks taken as coincident); a cut changes usage, not demand.',
  "Cost: the electric and gas meters' bills, each re-priced with its usage before and after on its meter's tariff (an electric meter " +
    "without one takes the property's), as the bill audit prices them; a bill no tariff prices (fuel oil: delivered, never tariffed) " +
    "is its billed amount times usage after / before (meters[].cost_basis). The year's cost is each bill's calendarised share.",
];

export type WhatIfChange =
  | { kind: 'cut'; utilityType: 'electric' | 'gas'; percent: number }
  | {
      kind: 'electrify';
      meterId: string;
      toMeterId: string;
      gasEfficiency: number;
      electricEfficiency: number;
      /** kBtu per common unit of the fuel meter: 100 for gas (therms), 1 for fuel oil (kBtu); default 100. */
      kbtuPerUnit?: number;
      /** kW the electric equipment adds to the billed demand of each electric bill that carries its load; default 0. */
      addedDemandKw?: number;
    };

export interface WhatIfBill {
  id: string;
  meterId: string;
  utilityType: MeterUtilityType;
  periodStart: string;
  periodEnd: string;
  /** Thousandths of the type's common unit; null when the bill has no usage (nothing changes it). */
  usageMilli: number | null;
}

/** kWh electrified from a gas bill, over that bill's period, on an electric meter. */
export interface ElectrifiedLoad {
  fromBillId: string;
  meterId: string;
  periodStart: string;
  periodEnd: string;
  wh: number;
  /** The change that made it (its index in the request), and the kW it adds to a bill carrying it. */
  change: number;
  addedDemandKw: number;
}

export interface ChangedBill extends WhatIfBill {
  /** The usage after the changes, the electrified load it carries included (Wh); null when the bill has none. */
  afterMilli: number | null;
  /** Of afterMilli, the Wh of electrified loads this bill's days carry. */
  addedWh: number;
  /** kW added to the bill's demand: each electrification whose load the bill carries, once (their peaks taken as coincident). */
  addedDemandKw: number;
}

export interface WhatIfResult {
  bills: ChangedBill[];
  loads: ElectrifiedLoad[];
  /** Electrified Wh on days of `year` that no bill with usage of the electric meter covers: counted in energy, not priced. */
  unpricedWh: number;
}

/** kWh per therm at these efficiencies: 100 / 3.412 x gas / electric. */
export function kwhPerTherm(gasEfficiency: number, electricEfficiency: number): number {
  return ((KBTU_PER_THERM / KBTU_PER_KWH) * gasEfficiency) / electricEfficiency;
}

/**
 * Wh of `milli` thousandths of the fuel meter's common unit electrified (therms of gas, `kbtuPerUnit`
 * 100; kBtu of fuel oil, 1), to the Wh (half away from zero).
 */
export function electrifiedWh(milli: number, gasEfficiency: number, electricEfficiency: number, kbtuPerUnit = KBTU_PER_THERM): number {
  return Math.round((milli * kbtuPerUnit * 1000 * gasEfficiency) / (KBTU_PER_KWH * 1000 * electricEfficiency));
}

/** `milli` less `percent` (two decimals at most), to the unit, half away from zero. */
export function cutMilli(milli: number, percent: number): number {
  const keptBasisPoints = 10_000 - Math.round(percent * 100);
  return roundDiv(milli * keptBasisPoints, 10_000);
}

/** The bills and loads after the changes, applied in order. */
export function applyChanges(bills: WhatIfBill[], changes: WhatIfChange[], year: number): WhatIfResult {
  const after = new Map<string, number | null>(bills.map((b) => [b.id, b.usageMilli]));
  let loads: ElectrifiedLoad[] = [];
  for (const [index, change] of changes.entries()) {
    if (change.kind === 'cut') {
      for (const b of bills) {
        const now = after.get(b.id);
        if (b.utilityType === change.utilityType && now !== null && now !== undefined) after.set(b.id, cutMilli(now, change.percent));
      }
      if (change.utilityType === 'electric') loads = loads.map((l) => ({ ...l, wh: cutMilli(l.wh, change.percent) }));
      continue;
    }
    for (const b of bills) {
      const now = after.get(b.id);
      if (b.meterId !== change.meterId || now === null || now === undefined) continue;
      loads.push({
        fromBillId: b.id,
        meterId: change.toMeterId,
        periodStart: b.periodStart,
        periodEnd: b.periodEnd,
        wh: electrifiedWh(now, change.gasEfficiency, change.electricEfficiency, change.kbtuPerUnit),
        change: index,
        addedDemandKw: change.addedDemandKw ?? 0,
      });
      after.set(b.id, 0);
    }
  }
  const added = new Map<string, number>();
  const demandOf = new Map<string, Map<number, number>>();
  let unpricedWh = 0;
  for (const load of loads) {
    const shares = shareLoad(
      load,
      bills.filter((b) => b.meterId === load.meterId && b.usageMilli !== null),
      year,
    );
    for (const [id, wh] of shares.byBill) {
      added.set(id, (added.get(id) ?? 0) + wh);
      if (wh > 0 && load.addedDemandKw > 0) demandOf.set(id, (demandOf.get(id) ?? new Map()).set(load.change, load.addedDemandKw));
    }
    unpricedWh += shares.unpricedInYear;
  }
  return {
    bills: bills.map((b) => {
      const a = after.get(b.id) ?? null;
      const addedWh = added.get(b.id) ?? 0;
      const addedDemandKw = [...(demandOf.get(b.id)?.values() ?? [])].reduce((s, kw) => s + kw, 0);
      return { ...b, afterMilli: a === null ? null : a + addedWh, addedWh, addedDemandKw };
    }),
    loads,
    unpricedWh,
  };
}

/**
 * The electric meters' months covered by interval readings (emissions README, rule 2) after the
 * changes: an electric cut cuts the readings' Wh as it cuts the bills' usage, and each electrified
 * load adds its share of the month (calendarised by days, as the bills' are) to the covered month of
 * the meter it lands on, so a month counted from readings carries the load as a billed month does.
 */
export function readingsAfter(readings: readonly IntervalMonth[], changes: WhatIfChange[], loads: ElectrifiedLoad[], year: number) {
  const cut = changes.find((c) => c.kind === 'cut' && c.utilityType === 'electric');
  const window = { from: year * 12, to: year * 12 + 11 };
  const loadShares = loads.map((l) => ({
    meterId: l.meterId,
    shares: calendariseBill({ periodStart: l.periodStart, periodEnd: l.periodEnd, cents: 0, usageMilli: l.wh }, window),
  }));
  return readings.map((r) => {
    const month = Number(r.month.slice(0, 4)) * 12 + Number(r.month.slice(5, 7)) - 1;
    const base = cut?.kind === 'cut' ? cutMilli(r.wh, cut.percent) : r.wh;
    const added = loadShares
      .filter((l) => l.meterId === r.meterId)
      .reduce((sum, l) => sum + (l.shares.find((s) => s.month === month)?.usageMilli ?? 0), 0);
    return { ...r, wh: base + added };
  });
}

/**
 * A load's Wh shared among the bills covering its days (a day covered twice goes to the earlier
 * bill), each day 1/days of it by running shares so the parts add back to the load exactly; the
 * Wh of days in `year` no bill covers are returned apart.
 */
export function shareLoad(
  load: Pick<ElectrifiedLoad, 'periodStart' | 'periodEnd' | 'wh'>,
  covering: Array<Pick<WhatIfBill, 'id' | 'periodStart' | 'periodEnd'>>,
  year: number,
): { byBill: Map<string, number>; unpricedInYear: number } {
  const first = dayNumber(load.periodStart);
  const days = dayNumber(load.periodEnd) - first + 1;
  const spans = [...covering]
    .sort((a, b) => a.periodStart.localeCompare(b.periodStart))
    .map((b) => ({ id: b.id, from: dayNumber(b.periodStart), to: dayNumber(b.periodEnd) }));
  const yearFrom = dayNumber(`${year}-01-01`);
  const yearTo = dayNumber(`${year}-12-31`);
  const byBill = new Map<string, number>();
  let unpricedInYear = 0;
  for (let i = 0; i < days; i++) {
    const wh = roundDiv(load.wh * (i + 1), days) - roundDiv(load.wh * i, days);
    const day = first + i;
    const bill = spans.find((s) => s.from <= day && day <= s.to);
    if (bill) byBill.set(bill.id, (byBill.get(bill.id) ?? 0) + wh);
    else if (day >= yearFrom && day <= yearTo) unpricedInYear += wh;
  }
  return { byBill, unpricedInYear };
}

/**
 * A bill's cost scaled linearly from its billed amount (what a bill its meter's tariff cannot
 * price costs after the change): billed x after / before, to the cent, half away from zero. A bill
 * without usage before keeps its billed amount.
 */
export function scaledCents(billedCents: number, beforeMilli: number | null, afterMilli: number | null): number {
  if (beforeMilli === null || afterMilli === null || beforeMilli <= 0) return billedCents;
  return roundDiv(BigInt(billedCents) * BigInt(afterMilli), beforeMilli);
}
