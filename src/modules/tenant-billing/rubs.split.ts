/**
 * The arithmetic of the RUBS allocator (rubs.calc.ts): from the units' integer factors to each
 * unit's share, base charge and admin fee in cents. Two implementations of the same exact
 * integer rules: plain numbers when every product stays below 2^53 (the usual single-factor
 * case, which then needs no BigInt), else BigInts. The unit tests check that they agree.
 */
import { apportionLargestRemainder, apportionLargestRemainderSafe, roundDivBig, roundDiv } from '../../platform/money';
import type { FactorName, RoundingMode, VacancyPolicy } from './rubs.types';

/** Input the allocator cannot split by (a 422 for the API), with the request field it concerns. */
export class AllocationError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'AllocationError';
  }
}

/** One factor of every unit line: values[i] = the line's factor x 10^places (a safe integer). */
export interface FactorPart {
  name: FactorName;
  /** Its weight in the blend (scaled percent), or 1n for a single-factor method. */
  weight: bigint;
  values: readonly number[];
  places: number;
  /**
   * The days of turnover units that no occupancy covers, as factor x 10^places x day weight: part
   * of every unit's total (owner_pays) and of the vacant share, billed to no one.
   */
  gapSum: bigint;
}

export interface SplitTerms {
  vacancyPolicy: VacancyPolicy;
  rounding: RoundingMode;
  billable: number;
  /** Each line's occupied days (0 when vacant), or 1/0 when nobody moved within the period. */
  dayWeights: readonly number[];
  /**
   * The days each line counts for in every unit's total: the whole period's weight for a unit's
   * only line, an occupancy's own days for a line of a unit that turned over.
   */
  allWeights: readonly number[];
  anyBilled: boolean;
}

export interface Core {
  /** Each line's base charge in cents, as its share gives it (before charge limits). */
  base: number[];
  /** Each share in hundredths of a percent, rounded half up. */
  basisPoints: number[];
  vacantAbsorption: number;
  /** Per factor: the billed and the full sums of value x day weight. */
  billedSums: bigint[];
  allSums: bigint[];
}

const FACTOR_WORDS: Record<FactorName, string> = {
  sqft: 'sqft',
  occupant_count: 'occupant_count',
  custom_weight: 'custom_weight',
  unit_count: 'unit count',
};

/** A share needs something to divide by: the billed units' factors (redistribute) or all units' (owner_pays). */
function assertSplittable(name: FactorName, billedZero: boolean, allZero: boolean, t: SplitTerms): void {
  if (t.vacancyPolicy === 'redistribute' && billedZero) {
    throw new AllocationError(
      'units',
      t.anyBilled
        ? `the billed units' ${FACTOR_WORDS[name]} add up to 0: there is nothing to allocate by`
        : 'every unit is vacant: with vacancy_policy redistribute there is no one to bill (use owner_pays)',
    );
  }
  if (t.vacancyPolicy === 'owner_pays' && allZero) {
    throw new AllocationError('units', `the units' ${FACTOR_WORDS[name]} add up to 0: there is nothing to allocate by`);
  }
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** The plain-number path for a single factor; null when some product could reach 2^53. */
export function safeCore(parts: readonly FactorPart[], t: SplitTerms): Core | null {
  if (parts.length !== 1) return null;
  const { values, name } = parts[0];
  const n = values.length;
  const w = t.dayWeights;
  const billed = new Array<number>(n);
  let billedSum = 0;
  let allSum = Number(parts[0].gapSum);
  for (let i = 0; i < n; i++) {
    const b = values[i] * w[i];
    billed[i] = b;
    billedSum += b;
    allSum += values[i] * t.allWeights[i];
  }
  const B = t.billable;
  // Every product below is at most one of these (billed <= all, base <= billable); non-negative
  // integer sums below 2^53 are exact, so the checks themselves are exact.
  if (!(allSum <= MAX_SAFE && B * allSum <= MAX_SAFE && allSum * 10_000 <= MAX_SAFE)) return null;
  assertSplittable(name, billedSum === 0, allSum === 0, t);

  const den = t.vacancyPolicy === 'redistribute' ? billedSum : allSum;
  const quotas = billed.map((b) => B * b);
  const vacantQuota = B * (allSum - billedSum);
  let base: number[];
  let vacantAbsorption: number;
  if (t.rounding === 'per_unit') {
    // Each share on its own, rounded down: never more than the bill (issue 46), equal shares equal charges.
    base = quotas.map((q) => (q - (q % den)) / den);
    vacantAbsorption = roundDiv(vacantQuota, allSum);
  } else if (t.vacancyPolicy === 'redistribute') {
    base = apportionLargestRemainderSafe(B, quotas, den);
    vacantAbsorption = roundDiv(vacantQuota, allSum);
  } else {
    // owner_pays: the owner is one more recipient (first, so it takes the ties), holding the vacant share.
    [vacantAbsorption, ...base] = apportionLargestRemainderSafe(B, [vacantQuota, ...quotas], den);
  }
  return {
    base,
    basisPoints: billed.map((b) => roundDiv(b * 10_000, den)),
    vacantAbsorption,
    billedSums: [BigInt(billedSum)],
    allSums: [BigInt(allSum)],
  };
}

const product = (values: readonly bigint[], skip = -1) => values.reduce((p, v, j) => (j === skip ? p : p * v), 1n);

/**
 * The general path, in BigInts: each unit's share is num[i] / den with one common denominator,
 * blending the factors: share = sum over factors of weight x billed factor / that factor's total,
 * over the sum of the weights. The total is the billed units' (redistribute) or every unit's (owner_pays).
 */
export function bigIntCore(parts: readonly FactorPart[], t: SplitTerms): Core {
  const n = t.dayWeights.length;
  const w = t.dayWeights.map(BigInt);
  const billedParts = parts.map((p) => p.values.map((v, i) => BigInt(v) * w[i]));
  const billedSums = billedParts.map((b) => b.reduce((s, v) => s + v, 0n));
  const allSums = parts.map((p) => p.values.reduce((s, v, i) => s + BigInt(v) * BigInt(t.allWeights[i]), p.gapSum));
  parts.forEach((p, k) => assertSplittable(p.name, billedSums[k] === 0n, allSums[k] === 0n, t));

  const dens = t.vacancyPolicy === 'redistribute' ? billedSums : allSums;
  const weightSum = parts.reduce((s, p) => s + p.weight, 0n);
  const others = parts.map((_, k) => product(dens, k));
  const den = weightSum * product(dens);
  const num = new Array<bigint>(n);
  for (let i = 0; i < n; i++) {
    let s = 0n;
    for (let k = 0; k < parts.length; k++) s += parts[k].weight * billedParts[k][i] * others[k];
    num[i] = s;
  }
  // The vacant share over all units (both policies report it): sum of weight x (all - billed) / all.
  const allOthers = parts.map((_, k) => product(allSums, k));
  const vacantDen = weightSum * product(allSums);
  const vacantNum = parts.reduce((s, p, k) => s + p.weight * (allSums[k] - billedSums[k]) * allOthers[k], 0n);

  const B = BigInt(t.billable);
  const quotas = num.map((q) => B * q);
  let base: bigint[];
  let vacantAbsorption: bigint;
  if (t.rounding === 'per_unit') {
    base = quotas.map((q) => q / den);
    vacantAbsorption = roundDivBig(B * vacantNum, vacantDen);
  } else if (t.vacancyPolicy === 'redistribute') {
    base = apportionLargestRemainder(B, quotas, den);
    vacantAbsorption = roundDivBig(B * vacantNum, vacantDen);
  } else {
    // Under owner_pays den is the all-units denominator, vacantDen.
    [vacantAbsorption, ...base] = apportionLargestRemainder(B, [B * vacantNum, ...quotas], den);
  }
  return {
    base: base.map(Number),
    basisPoints: num.map((q) => Number(roundDivBig(q * 10_000n, den))),
    vacantAbsorption: Number(vacantAbsorption),
    billedSums,
    allSums,
  };
}

/**
 * The admin fees of the final base charges (rule 5): rate = feeScaled / feeDen; `per_unit` rounds
 * each fee, `exact` apportions (sum of base x rate, rounded once) by largest remainder. Plain
 * numbers while every product stays below 2^53, else BigInts; the same results either way.
 */
export function adminFees(
  base: readonly number[],
  feeScaled: number,
  feeDen: number,
  rounding: RoundingMode,
  arithmetic: 'auto' | 'bigint' = 'auto',
): number[] {
  let baseSum = 0;
  for (const b of base) baseSum += b;
  if (arithmetic === 'auto' && baseSum * feeScaled <= MAX_SAFE) {
    const quotas = base.map((b) => b * feeScaled);
    return rounding === 'per_unit'
      ? quotas.map((q) => roundDiv(q, feeDen))
      : apportionLargestRemainderSafe(roundDiv(baseSum * feeScaled, feeDen), quotas, feeDen);
  }
  const scaled = BigInt(feeScaled);
  const den = BigInt(feeDen);
  const quotas = base.map((b) => BigInt(b) * scaled);
  const fees =
    rounding === 'per_unit'
      ? quotas.map((q) => roundDivBig(q, den))
      : apportionLargestRemainder(
          roundDivBig(
            quotas.reduce((s, q) => s + q, 0n),
            den,
          ),
          quotas,
          den,
        );
  return fees.map(Number);
}
