import { unprocessable } from '../../platform/http/errors';
import type { Tariff } from '../tariffs/tariff.model';
import { BillingError, type BillRequest, type IntervalData, type UsageProfile } from './engine';
import { localIntervals } from './engine/intervals';
import { tariffUsage, type TariffUsage, type UsageInputs } from './tariff-usage';
import type { CalculateBody } from './schemas';

/** A request's usage fields (POST /calculate and /calculate/compare): what the engine's BillRequest is made from. */
export type UsageFields = Omit<CalculateBody, 'tariff_id' | 'tax_rate_percent' | 'period_start' | 'period_end'> & {
  tax_rate_percent?: number | null;
};

function usageProfileOf(body: UsageFields): UsageProfile | null {
  const p = body.usage_profile;
  return p ? { onPeakKwh: p.on_peak_kwh, midPeakKwh: p.mid_peak_kwh, offPeakKwh: p.off_peak_kwh } : null;
}

const intervalData = new WeakMap<object, IntervalData>();

/** The request's intervals as the engine takes them: one object per request, so every tariff priced on it reads them once. */
function intervalsOf(body: UsageFields): IntervalData | null {
  const i = body.intervals;
  if (!i) return null;
  let data = intervalData.get(i);
  if (!data) {
    data = { start: i.start, intervalMinutes: i.interval_minutes, kwh: i.kwh, timezone: i.timezone ?? null };
    intervalData.set(i, data);
  }
  return data;
}

/**
 * The month billed when the request has intervals and no month: theirs (the engine refuses intervals
 * over more than one month without a billing period); null without intervals. A 422 for intervals
 * the engine cannot read.
 */
export function intervalsMonth(body: UsageFields): number | null {
  const data = intervalsOf(body);
  if (!data) return null;
  try {
    return (localIntervals(data).months[0] % 12) + 1;
  } catch (err) {
    if (err instanceof BillingError) throw unprocessable(err.message, err.field);
    throw err;
  }
}

/** The request's usage fields as the pricing functions take them. */
export function usageInputsOf(body: UsageFields): UsageInputs {
  return {
    usage: { kwh: body.usage_kwh, quantity: body.usage, unit: body.unit, heatContent: body.heat_content },
    demandKw: body.demand_kw,
    solarGenerationKwh: body.solar_generation_kwh,
    usageProfile: usageProfileOf(body),
    supplyRatePerKwh: body.supply_rate_per_kwh,
    intervals: intervalsOf(body),
  };
}

/** The request's usage for one tariff (tariff-usage.ts), or a 422 naming the field that does not fit it. */
export function usageFor(body: UsageFields, tariff: Tariff): TariffUsage {
  const checked = tariffUsage(usageInputsOf(body), tariff);
  if (!checked.ok) throw unprocessable(checked.error.message, checked.error.field);
  return checked.usage;
}

export function billRequest(body: UsageFields, month: number, usage: TariffUsage, supplyTariff: Tariff | null): BillRequest {
  return {
    usageKwh: usage.quantity,
    month,
    demandKw: body.demand_kw ?? null,
    solarGenerationKwh: body.solar_generation_kwh ?? null,
    usageProfile: usageProfileOf(body),
    taxRatePercent: body.tax_rate_percent ?? null,
    supplyRatePerKwh: body.supply_rate_per_kwh ?? null,
    supplyTariff,
    intervals: intervalsOf(body),
  };
}
