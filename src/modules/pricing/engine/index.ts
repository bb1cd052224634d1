import type { Tariff } from '../../tariffs/tariff.model';
import { BillBuilder } from './builder';
import { MAX_DEMAND_KW, MAX_SUPPLY_RATE_PER_KWH, MAX_TAX_RATE_PERCENT, MAX_USAGE_KWH } from './limits';
import { mulDivRound, toMilli, toPrice } from './money';
import { billingMonthOf, monthPlanOf, planOf, type MonthPlan, type TariffPlan } from './plan';
import { allocateUsage, checkProfile } from './usage';
import { priceEnergy } from './energy.calc';
import { applySolar, creditExports, limitCredits } from './netmetering.calc';
import { priceDemand } from './demand.calc';
import { applyMinimum, priceFixed } from './fixed.calc';
import { priceRiders } from './riders.calc';
import { addSupplyBill, priceSupply } from './supply.calc';
import { checkApplicability } from './notices';
import { intervalNote, intervalUsage, priceIntervalDemand } from './interval-bill';
import { localIntervals, meterIntervals } from './intervals';
import { BillingError, type BillRequest, type BillResult, type LoadShapeSet } from './types';

export * from './types';

function checkQuantity(value: number | null | undefined, field: string, max: number): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max) {
    throw new BillingError('invalid_request', `${field} must be a number between 0 and ${max}`, field);
  }
}

function checkRequest(req: BillRequest): void {
  if (!Number.isInteger(req.month) || req.month < 1 || req.month > 12) {
    throw new BillingError('invalid_request', 'month must be between 1 and 12', 'month');
  }
  if (req.usageKwh === undefined || req.usageKwh === null) throw new BillingError('invalid_request', 'field required', 'usage_kwh');
  checkQuantity(req.usageKwh, 'usage_kwh', MAX_USAGE_KWH);
  checkQuantity(req.demandKw, 'demand_kw', MAX_DEMAND_KW);
  checkQuantity(req.solarGenerationKwh, 'solar_generation_kwh', MAX_USAGE_KWH);
  checkQuantity(req.taxRatePercent, 'tax_rate_percent', MAX_TAX_RATE_PERCENT);
  checkQuantity(req.supplyRatePerKwh, 'supply_rate_per_kwh', MAX_SUPPLY_RATE_PER_KWH);
  const p = req.usageProfile;
  if (p) {
    checkQuantity(p.onPeakKwh, 'usage_profile.on_peak_kwh', MAX_USAGE_KWH);
    checkQuantity(p.midPeakKwh, 'usage_profile.mid_peak_kwh', MAX_USAGE_KWH);
    checkQuantity(p.offPeakKwh, 'usage_profile.off_peak_kwh', MAX_USAGE_KWH);
  }
}

/** Energy, supply, export credits and demand: from the intervals when the request has them, else from usage_kwh and demand_kw. */
function priceUsage(b: BillBuilder, plan: TariffPlan, mp: MonthPlan, tariff: Tariff, req: BillRequest): MonthPlan {
  const usageMilli = toMilli(req.usageKwh);
  const demandGiven = req.demandKw !== undefined && req.demandKw !== null;
  const metered = req.intervals ? intervalUsage(plan, mp, req) : null;
  const month = metered ? metered.mp : mp;
  const demandMilli = metered ? metered.meter.flatPeak.milli : demandGiven ? toMilli(req.demandKw as number) : 0;
  const solarMilli = req.solarGenerationKwh ? toMilli(req.solarGenerationKwh) : 0;
  const profile = req.usageProfile && !metered ? checkProfile(plan, mp, req.usageProfile, usageMilli, tariff.id) : null;
  const usage = metered ? metered.energyMilli : allocateUsage(b, plan, mp, usageMilli, profile);
  const solar = solarMilli > 0 ? applySolar(b, plan, month, usage, solarMilli) : null;
  const billed = solar ? solar.billed : usage;
  // Tiers are shared over the periods with the load-shape shares when usage_kwh was split by them (the
  // same apportionment, so no tier piece shrinks as usage grows), else in proportion to the billed kWh.
  const byShape = !metered && billed === usage && !(profile && plan.timeDifferentiated) && mp.shapeShares !== undefined;
  priceEnergy(b, plan, month, billed, byShape ? (mp.shapeShares as number[]) : billed, demandMilli);
  priceSupply(b, tariff.serviceType, usageMilli, req.supplyRatePerKwh, req.supplyTariff ?? null);
  const credits = solar?.exported ? creditExports(b, plan, month, solar.exported) : 0;
  if (metered) priceIntervalDemand(b, plan, metered);
  else priceDemand(b, plan, mp, demandMilli);
  const fixedCents = priceFixed(b, plan.fixed, mp);
  priceRiders(b, plan, mp, usageMilli);
  if (plan.netMetering) limitCredits(b, credits, fixedCents);
  applyMinimum(b, plan.minimum, mp);
  if (metered) b.assumptions.push(intervalNote(plan, metered));
  return month;
}

/**
 * Prices one month of a tariff: pure (no I/O, no clock). `loadShapes` is the
 * bundled data/reference/load-shapes.json. Throws BillingError for a request
 * the tariff cannot be priced for (missing demand_kw, a profile that does not
 * fit, intervals that do not). Per-tariff data is computed once per tariff object (plan.ts).
 */
export function calculateBill(tariff: Tariff, req: BillRequest, loadShapes: LoadShapeSet): BillResult {
  checkRequest(req);
  const plan = planOf(tariff, loadShapes);
  const demandGiven = req.demandKw !== undefined && req.demandKw !== null;
  if (plan.needsDemand && !demandGiven && !req.intervals) {
    throw new BillingError('demand_required', 'demand_kw required for demand tariffs', 'demand_kw');
  }
  const mp = billingMonthOf(monthPlanOf(plan, req.month - 1), req.period);
  const usageMilli = toMilli(req.usageKwh);
  const b = new BillBuilder();
  priceUsage(b, plan, mp, tariff, req);
  // The supply contract's bill, after the delivery tariff's minimum (a minimum bill is the utility's, not the supplier's).
  if (req.supplyTariff && tariff.serviceType === 'delivery_only') {
    addSupplyBill(
      b,
      calculateBill(req.supplyTariff, { ...req, supplyTariff: null, supplyRatePerKwh: null, taxRatePercent: null }, loadShapes),
    );
  }
  if (plan.realTime) b.assumptions.push('real-time tariff priced at its published rates: the bundled data holds no hourly price series');
  for (const notice of plan.notices) b.assumptions.push(notice);
  // Applicability limits are a month's: a billing period's usage is judged per month it bills.
  const monthUsageMilli = req.period ? mulDivRound(usageMilli, req.period.months.den, req.period.months.num) : usageMilli;
  const demandMilli = req.intervals
    ? meterIntervals(plan, localIntervals(req.intervals)).flatPeak.milli
    : demandGiven
      ? toMilli(req.demandKw as number)
      : null;
  checkApplicability(b, plan, monthUsageMilli, demandMilli);

  return billResult(
    b,
    { tariffId: tariff.id, tariffName: tariff.name, month: req.month, season: mp.season },
    usageMilli,
    req.taxRatePercent,
  );
}

/**
 * The bill a builder holds: its total, category sums, the tax estimate (reported beside the total)
 * and the effective rate per unit of usage, 4 decimals.
 */
export function billResult(
  b: BillBuilder,
  head: Pick<BillResult, 'tariffId' | 'tariffName' | 'month' | 'season'>,
  usageMilli: number,
  taxRatePercent: number | null | undefined,
): BillResult {
  const totalCents = b.totalCents();
  let taxCents = 0;
  if (taxRatePercent) {
    const rate = toPrice(taxRatePercent);
    taxCents = mulDivRound(totalCents, rate.int, 100 * 10 ** rate.exp);
  }
  // effective rate = (cents / 100) / (Wh / 1000) $/kWh, to 4 decimals: round(cents * 1e5 / Wh) / 1e4
  const effective = usageMilli > 0 ? mulDivRound(totalCents, 100000, usageMilli) / 10000 : 0;
  return {
    // Field by field, not `...head`: every bill builds one, and a spread of it costs far more.
    tariffId: head.tariffId,
    tariffName: head.tariffName,
    month: head.month,
    season: head.season,
    totalCost: totalCents / 100,
    totalCostCents: totalCents,
    lineItems: b.items,
    summary: {
      energyCharge: b.energyCents / 100,
      demandCharge: b.demandCents / 100,
      fixedCharge: b.fixedCents / 100,
      riders: b.riderCents / 100,
      taxesEstimate: taxCents / 100,
      effectiveRatePerKwh: effective,
    },
    assumptions: b.assumptions,
  };
}
