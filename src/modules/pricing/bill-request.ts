import { unprocessable } from '../../platform/http/errors';
import type { Tariff } from '../tariffs/tariff.model';
import type { BillRequest, UsageProfile } from './engine';
import { tariffUsage, type TariffUsage, type UsageInputs } from './tariff-usage';
import type { CalculateBody } from './schemas';

/** A request's usage fields (POST /calculate and /calculate/compare): what the engine's BillRequest is made from. */
export type UsageFields = Omit<CalculateBody, 'tariff_id' | 'tax_rate_percent' | 'period_start' | 'period_end'> & { tax_rate_percent?: number | null };

function usageProfileOf(body: UsageFields): UsageProfile | null {
  const p = body.usage_profile;
  return p ? { onPeakKwh: p.on_peak_kwh, midPeakKwh: p.mid_peak_kwh, offPeakKwh: p.off_peak_kwh } : null;
}

/** The request's usage fields as the pricing functions take them. */
export function usageInputsOf(body: UsageFields): UsageInputs {
  return {
    usage: { kwh: body.usage_kwh, quantity: body.usage, unit: body.unit, heatContent: body.heat_content },
    demandKw: body.demand_kw,
    solarGenerationKwh: body.solar_generation_kwh,
    usageProfile: usageProfileOf(body),
    supplyRatePerKwh: body.supply_rate_per_kwh,
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
  };
}
