/**
 * The RUBS allocator: splits a master-metered utility bill over tenant units. Pure: no database,
 * no clock, no environment; plain objects in, plain objects out (callable from a REPL).
 *
 * Money is integer cents and every share is an exact fraction of BigInts: factors are read as the
 * decimals they were written as (at most FACTOR_PLACES places) and rounded once, where the rules
 * say. The rules, with hand-worked examples, are in this folder's README.md.
 */
import { decimalPlacesOf, fromScaledInteger, roundDivBig, toScaledInteger } from '../../platform/money';
import { dayNumber, periodDays } from './occupancy';
import { dailyPrefix, linesOf, timeWeights } from './rubs.lines';
import { adminFees, bigIntCore, safeCore, type Core, type FactorPart, type SplitTerms } from './rubs.split';
import {
  FACTOR_PLACES,
  METHOD_FACTORS,
  PERCENT_PLACES,
  type Allocation,
  type AllocationInput,
  type BillingUnit,
  type FactorName,
  type OccupantFactorTable,
  type UnitAllocation,
} from './rubs.types';

export { AllocationError } from './rubs.split';

const PERCENT_SCALE = 10n ** BigInt(PERCENT_PLACES);
/** 100 % in scaled percent units. */
const HUNDRED_PERCENT = 100n * PERCENT_SCALE;

function scaledPercent(value: number, what: string): bigint {
  const v = toScaledInteger(value, PERCENT_PLACES);
  if (v === null || v < 0n || v > HUNDRED_PERCENT) {
    throw new RangeError(`${what} must be a percentage from 0 to 100 with at most ${PERCENT_PLACES} decimal places`);
  }
  return v;
}

/**
 * The occupant factor of a head count: the count itself without a table; with one, the table's
 * row, where an occupied line counts at least 1 person unless the table has a row for 0, and a
 * count above the last row takes the last row's factor.
 */
export function occupantFactor(count: number, occupied: boolean, table: OccupantFactorTable | null | undefined): number {
  if (!table) return count;
  const people = occupied && count === 0 && !('0' in table) ? 1 : count;
  if (people === 0) return table['0'] ?? 0;
  let last = 0;
  for (const key of Object.keys(table)) last = Math.max(last, Number(key));
  return table[String(Math.min(people, last))] ?? 0;
}

function factorOf(
  unit: BillingUnit,
  name: FactorName,
  occupants: number | null | undefined,
  occupied: boolean,
  table: OccupantFactorTable | null | undefined,
): number {
  if (name === 'unit_count') return 1;
  const raw = name === 'occupant_count' ? occupants : unit[name];
  if (raw === null || raw === undefined || !(raw >= 0)) throw new RangeError(`unit ${unit.unit_id}: ${name} must be a number >= 0`);
  return name === 'occupant_count' ? occupantFactor(raw, occupied, table) : raw;
}

/** The largest number of decimals among values (at most FACTOR_PLACES, else a RangeError). */
function placesOf(name: FactorName, values: readonly number[]): number {
  let places = 0;
  for (const v of values) {
    const p = decimalPlacesOf(v, FACTOR_PLACES);
    if (p === null) throw new RangeError(`${name} must have at most ${FACTOR_PLACES} decimal places`);
    if (p > places) places = p;
  }
  return places;
}

/**
 * One factor of every line as integers: value x 10^places, with places the most decimals any line
 * used (usually 0), so the integers stay small and the arithmetic in plain numbers where it can;
 * the turnover gaps' factor-days are summed at the same scale.
 */
function readFactor(
  name: FactorName,
  weight: bigint,
  raw: readonly number[],
  gaps: ReadonlyArray<{ value: number; weight: number }>,
): FactorPart {
  const places = Math.max(
    placesOf(name, raw),
    placesOf(
      name,
      gaps.map((g) => g.value),
    ),
  );
  const scale = (v: number) => (places === 0 ? v : Number(toScaledInteger(v, places)));
  const values = raw.map(scale);
  if (values.some((v) => !Number.isSafeInteger(v))) throw new RangeError(`${name} is too large`);
  const gapSum = gaps.reduce((sum, g) => sum + BigInt(scale(g.value)) * BigInt(g.weight), 0n);
  return { name, weight, values, places, gapSum };
}

export interface AllocateOptions {
  /** 'bigint' forces the BigInt arithmetic (tests compare it with the plain-number path). */
  arithmetic?: 'auto' | 'bigint';
}

const nonNegativeCents = (value: number | null | undefined, what: string): number | null => {
  if (value === null || value === undefined) return null;
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${what} must be a non-negative integer`);
  return value;
};

/** The input's amounts, checked: the bill and the fixed fees in cents, the percentages scaled. */
function checkedAmounts(input: AllocationInput) {
  if (!Number.isSafeInteger(input.totalCents) || input.totalCents < 0) throw new RangeError('totalCents must be a non-negative integer');
  const amounts = {
    total: BigInt(input.totalCents),
    commonArea: scaledPercent(input.commonAreaPercent, 'commonAreaPercent'),
    adminFee: scaledPercent(input.adminFeePercent, 'adminFeePercent'),
    maxCharge: nonNegativeCents(input.maxChargeCents, 'maxChargeCents'),
    minCharge: nonNegativeCents(input.minChargeCents, 'minChargeCents'),
    billingFee: nonNegativeCents(input.billingFeeCents, 'billingFeeCents') ?? 0,
  };
  const { maxCharge, minCharge } = amounts;
  if (maxCharge !== null && minCharge !== null && maxCharge < minCharge)
    throw new RangeError('maxChargeCents must not be below minChargeCents');
  return amounts;
}

/** The method's factors with a weight above 0, each read as integers for every line and turnover gap. */
function factorParts(input: AllocationInput, lines: readonly UnitAllocation[], gapWeights: readonly number[]): FactorPart[] {
  const { units } = input;
  const names = METHOD_FACTORS[input.method];
  const weights =
    names.length === 1
      ? [1n]
      : (() => {
          const sqftWeight = scaledPercent(input.sqftWeightPercent, 'sqftWeightPercent');
          return [sqftWeight, HUNDRED_PERCENT - sqftWeight];
        })();
  const table = input.occupantFactors;
  return names
    .map((name, k) => ({ name, weight: weights[k] }))
    .filter((p) => p.weight > 0n)
    .map((p) => {
      const raw = lines.map((l) => factorOf(l.unit, p.name, l.occupantCount, !l.isVacant, table));
      // The empty days of units that turned over, at the unit's factor (its own head count, 0 when absent).
      const gaps: Array<{ value: number; weight: number }> = [];
      units.forEach((u, i) => {
        if (gapWeights[i] === 0) return;
        const value =
          p.name === 'occupant_count' ? occupantFactor(u.occupant_count ?? 0, false, table) : factorOf(u, p.name, null, false, table);
        gaps.push({ value, weight: gapWeights[i] });
      });
      return readFactor(p.name, p.weight, raw, gaps);
    });
}

/**
 * Each line's share from the core, and its base charge within the charge limits (billed lines only);
 * the owner takes the difference either way.
 */
function limitedBase(
  lines: UnitAllocation[],
  core: Core,
  parts: readonly FactorPart[],
  table: OccupantFactorTable | null | undefined,
  maxCharge: number | null,
  minCharge: number | null,
) {
  const occupantPart = parts.findIndex((p) => p.name === 'occupant_count');
  let maxAbsorbed = 0;
  let minAdded = 0;
  const base = lines.map((l, i) => {
    const share = core.base[i];
    l.shareBasisPoints = core.basisPoints[i];
    l.shareCents = share;
    if (table && occupantPart >= 0) l.occupantFactor = fromScaledInteger(parts[occupantPart].values[i], parts[occupantPart].places);
    if (l.isVacant) return share;
    if (maxCharge !== null && share > maxCharge) {
      maxAbsorbed += share - maxCharge;
      l.limit = 'max_charge';
      return maxCharge;
    }
    if (minCharge !== null && share < minCharge) {
      minAdded += minCharge - share;
      l.limit = 'min_charge';
      return minCharge;
    }
    return share;
  });
  return { base, maxAbsorbed, minAdded };
}

/** Writes each line's charges and sums what the tenants are billed. */
function chargeLines(lines: UnitAllocation[], base: readonly number[], fees: readonly number[], billingFee: number) {
  let billed = 0;
  let feeSum = 0;
  let billingFees = 0;
  const billedUnits = new Set<BillingUnit>();
  lines.forEach((l, i) => {
    l.baseCents = base[i];
    l.adminFeeCents = fees[i];
    l.billingFeeCents = l.isVacant ? 0 : billingFee;
    l.totalCents = l.baseCents + l.adminFeeCents + l.billingFeeCents;
    billed += l.baseCents;
    feeSum += l.adminFeeCents;
    billingFees += l.billingFeeCents;
    if (!l.isVacant) billedUnits.add(l.unit);
  });
  return { billed, feeSum, billingFees, unitsBilled: billedUnits.size };
}

/** Splits the master bill over the units; throws AllocationError for input it cannot split by. */
export function allocate(input: AllocationInput, options: AllocateOptions = {}): Allocation {
  const { units } = input;
  const { total, commonArea, adminFee, maxCharge, minCharge, billingFee } = checkedAmounts(input);

  // Rules 1 and 2: the common-area deduction, rounded to the cent; the rest is billable.
  const deduction = roundDivBig(total * commonArea, HUNDRED_PERCENT);
  const billable = total - deduction;

  // Occupied days, weighted by the days' energy when daily weights are given.
  const period = periodDays(input.periodStart, input.periodEnd);
  const prefix = dailyPrefix(input.dailyWeights, period);
  const { lines, ranges, unitOf } = linesOf(units, dayNumber(input.periodStart), dayNumber(input.periodEnd), period);
  const { prorated, dayWeights, fullWeight, allWeights, gapWeights } = timeWeights(lines, ranges, unitOf, units.length, period, prefix);

  const parts = factorParts(input, lines, gapWeights);
  const terms: SplitTerms = {
    vacancyPolicy: input.vacancyPolicy,
    rounding: input.rounding,
    billable: Number(billable),
    dayWeights,
    allWeights,
    anyBilled: lines.some((l) => !l.isVacant),
  };
  const core: Core = (options.arithmetic !== 'bigint' && safeCore(parts, terms)) || bigIntCore(parts, terms);

  const { base, maxAbsorbed, minAdded } = limitedBase(lines, core, parts, input.occupantFactors, maxCharge, minCharge);
  const fees = adminFees(base, Number(adminFee), Number(HUNDRED_PERCENT), input.rounding, options.arithmetic);
  const { billed, feeSum, billingFees, unitsBilled } = chargeLines(lines, base, fees, billingFee);
  const ownerAbsorbs = (input.vacancyPolicy === 'owner_pays' ? core.vacantAbsorption : 0) + maxAbsorbed - minAdded;
  // Totals shown with FACTOR_PLACES decimals: factor-days over the full weight, rounded.
  const shown = (sum: bigint, places: number) =>
    fromScaledInteger(roundDivBig(sum * 10n ** BigInt(FACTOR_PLACES), BigInt(fullWeight) * 10n ** BigInt(places)), FACTOR_PLACES);
  const singleFactor = METHOD_FACTORS[input.method].length === 1;
  return {
    periodDays: period,
    periodWeight: prefix ? prefix[period] : null,
    commonAreaDeductionCents: Number(deduction),
    billableCents: Number(billable),
    vacantAbsorptionCents: core.vacantAbsorption,
    lines,
    unitsBilled,
    unitsVacant: units.length - unitsBilled,
    factorTotals: parts.map((p, k) => ({
      name: p.name,
      weightPercent: singleFactor ? 100 : fromScaledInteger(p.weight, PERCENT_PLACES),
      billedTotal: shown(core.billedSums[k], p.places),
      allTotal: shown(core.allSums[k], p.places),
      // With daily weights (Wh) the sums are factor-Wh, shown as factor-kWh.
      billedFactorDays: prorated ? fromScaledInteger(core.billedSums[k], p.places + (prefix ? 3 : 0)) : null,
      allFactorDays: prorated ? fromScaledInteger(core.allSums[k], p.places + (prefix ? 3 : 0)) : null,
    })),
    reconciliation: {
      totalAmountCents: input.totalCents,
      commonAreaDeductionCents: Number(deduction),
      billedToTenantsCents: billed,
      adminFeesCents: feeSum,
      billingFeesCents: billingFees,
      ownerAbsorbsCents: ownerAbsorbs,
      maxChargeAbsorbedCents: maxAbsorbed,
      minChargeAddedCents: minAdded,
      roundingDifferenceCents: input.totalCents - Number(deduction) - billed - ownerAbsorbs,
    },
  };
}
