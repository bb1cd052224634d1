/**
 * A month (or a billing period's piece) priced from interval data: each energy period's kWh and each
 * demand period's peak are measured, not estimated (pricing README "Interval data"). Pure.
 */
import { MONTH_NAMES } from './calendar';
import { formatMilli, toMilli } from './money';
import { sameTierBounds, type MonthPlan, type TariffPlan } from './plan';
import { localIntervals, meterIntervals, type IntervalMeter, type LocalIntervals, type Peak } from './intervals';
import { priceDemandPeriod } from './demand.calc';
import { BillingError, type BillRequest } from './types';
import type { BillBuilder } from './builder';

/** usage_kwh and demand_kw sent with intervals agree with them within 0.01 kWh, 0.01 kW. */
const AGREE_MILLI = 10;

/** What calculateBill prices a request with intervals on. */
export interface IntervalUsage {
  local: LocalIntervals;
  meter: IntervalMeter;
  /** The month plan with the periods the intervals fall in (a billing period's intervals may reach into other months). */
  mp: MonthPlan;
  /** Wh of each entry of mp.energyPeriods. */
  energyMilli: number[];
}

const sorted = (keys: Iterable<number>) => [...keys].sort((a, b) => a - b);

function checkAgreement(req: BillRequest, local: LocalIntervals, meter: IntervalMeter): void {
  const usage = toMilli(req.usageKwh);
  if (Math.abs(usage - local.totalMilli) > AGREE_MILLI) {
    throw new BillingError(
      'invalid_request',
      `usage_kwh is ${formatMilli(usage)} but the intervals add up to ${formatMilli(local.totalMilli)} kWh (they must agree within 0.01 kWh; usage_kwh may be left out)`,
      'usage_kwh',
    );
  }
  if (req.demandKw === undefined || req.demandKw === null) return;
  const demand = toMilli(req.demandKw);
  if (Math.abs(demand - meter.flatPeak.milli) > AGREE_MILLI) {
    throw new BillingError(
      'invalid_request',
      `demand_kw is ${formatMilli(demand)} but the intervals' largest ${meter.windowMinutes}-minute average is ${formatMilli(meter.flatPeak.milli)} kW (they must agree within 0.01 kW; demand_kw may be left out)`,
      'demand_kw',
    );
  }
}

/**
 * The request's intervals metered on the tariff, checked: usage_kwh and demand_kw agree with them,
 * no usage_profile beside them, and without a billing period they lie in the month billed.
 */
export function intervalUsage(plan: TariffPlan, mp: MonthPlan, req: BillRequest): IntervalUsage {
  const local = localIntervals(req.intervals!);
  const meter = meterIntervals(plan, local);
  if (req.usageProfile)
    throw new BillingError(
      'invalid_request',
      'usage_profile cannot be sent with intervals: the intervals give each period its kWh',
      'usage_profile',
    );
  if (!req.period) {
    if (local.months.length > 1) {
      throw new BillingError(
        'invalid_request',
        `the intervals run from ${local.firstDate} to ${local.lastDate}, over more than one month: price them as a billing period (period_start, period_end)`,
        'intervals',
      );
    }
    if (local.months[0] % 12 !== req.month - 1) {
      throw new BillingError(
        'invalid_request',
        `month is ${req.month} but the intervals are in ${MONTH_NAMES[local.months[0] % 12]}`,
        'month',
      );
    }
  }
  checkAgreement(req, local, meter);
  const energyPeriods = plan.energy ? sorted(meter.energy.keys()) : [];
  const month: MonthPlan = {
    ...mp,
    energyPeriods,
    sharedTiers: plan.energy !== null && energyPeriods.length > 0 && sameTierBounds(energyPeriods, plan.energy),
    touDemandPeriods: plan.touDemand ? sorted(meter.touPeaks.keys()) : [],
    coincidentPeriods: plan.coincident ? sorted(meter.coincidentPeaks.keys()) : [],
  };
  return { local, meter, mp: month, energyMilli: energyPeriods.map((p) => meter.energy.get(p) as number) };
}

function peakText(u: IntervalUsage, peak: Peak): string {
  return `largest ${u.meter.windowMinutes}-minute average, ${u.local.label(peak.at)}`;
}

/**
 * Demand charges from the intervals: facility demand on the largest window average of all the
 * intervals, each TOU and coincident-peak period on the largest in its own hours.
 */
export function priceIntervalDemand(b: BillBuilder, plan: TariffPlan, u: IntervalUsage): void {
  const { mp, meter } = u;
  if (plan.flatDemand && mp.flatDemandPeriod >= 0 && meter.flatPeak.milli > 0) {
    priceDemandPeriod(
      b,
      `Facility demand (${peakText(u, meter.flatPeak)})`,
      plan.flatDemand[mp.flatDemandPeriod],
      plan.flatDemandUnit,
      mp,
      meter.flatPeak.milli,
    );
  }
  for (const p of mp.touDemandPeriods) {
    const period = plan.touDemand![p];
    const peak = meter.touPeaks.get(p)!;
    priceDemandPeriod(b, `TOU demand ${period.name} (${peakText(u, peak)})`, period, plan.touDemandUnit, mp, peak.milli);
  }
  for (const p of mp.coincidentPeriods) {
    const period = plan.coincident![p];
    const peak = meter.coincidentPeaks.get(p)!;
    priceDemandPeriod(b, `Coincident peak demand ${period.name} (${peakText(u, peak)})`, period, plan.coincidentUnit, mp, peak.milli);
  }
}

/** The assumption sentence of a bill priced from intervals: what they held, per period. */
export function intervalNote(plan: TariffPlan, u: IntervalUsage): string {
  const { local, meter, mp } = u;
  const energy = mp.energyPeriods.map((p, i) => `${plan.energy![p].name} ${formatMilli(u.energyMilli[i])} kWh`);
  const demand = mp.touDemandPeriods.map((p) => `${plan.touDemand![p].name} ${formatMilli(meter.touPeaks.get(p)!.milli)} kW`);
  const units = [plan.flatDemandUnit, plan.touDemandUnit, plan.coincidentUnit].map((x) => x.label).filter((l) => l !== 'kW');
  return (
    `priced from ${local.wh.length} ${local.intervalMinutes}-minute intervals, ${local.label(0)} to ${local.label(local.wh.length - 1)} ` +
    `(${local.zone} clock time; Saturdays, Sundays and federal holidays on the weekend schedule): ${formatMilli(local.totalMilli)} kWh` +
    (energy.length ? `; energy periods: ${energy.join(', ')}` : '') +
    `; peak demand ${formatMilli(meter.flatPeak.milli)} kW (${peakText(u, meter.flatPeak)})` +
    (demand.length ? `; TOU demand periods: ${demand.join(', ')}` : '') +
    (units.length ? `; the demand charge's unit (${[...new Set(units)].join(', ')}) read as kW: intervals carry no reactive power` : '')
  );
}
