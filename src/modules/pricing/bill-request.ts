import { unprocessable, validationFailed } from '../../platform/http/errors';
import { usageOf, type Tariff } from '../tariffs/tariff.model';
import { convertUsage } from './usage-units';
import type { BillRequest } from './engine';
import type { CalculateBody } from './schemas';

/** A request's usage fields (POST /calculate and /calculate/compare): what the engine's BillRequest is made from. */
export type UsageFields = Omit<CalculateBody, 'tariff_id' | 'tax_rate_percent' | 'period_start' | 'period_end'> & { tax_rate_percent?: number | null };

/** The usage a tariff is priced for, in its unit, and what converting it assumed. */
export interface TariffUsage {
  quantity: number;
  notes: string[];
}

/** Fields that only electric bills take. */
const ELECTRIC_ONLY = ['demand_kw', 'solar_generation_kwh', 'usage_profile', 'supply_rate_per_kwh'] as const;

/**
 * The request's usage for one tariff (pricing README "Units"): usage_kwh on electric tariffs;
 * usage and unit on gas, water and sewer ones, converted to the tariff's unit.
 */
export function usageFor(body: UsageFields, tariff: Tariff): TariffUsage {
  const { utilityType, unit } = usageOf(tariff);
  const given = (v: unknown) => v !== undefined && v !== null;
  if (utilityType === 'electric') {
    if (given(body.usage) || given(body.unit)) {
      throw unprocessable(`usage and unit are for gas, water and sewer tariffs: ${tariff.id} is electric, send usage_kwh`, given(body.usage) ? 'usage' : 'unit');
    }
    if (!given(body.usage_kwh)) throw validationFailed([{ field: 'usage_kwh', message: 'field required' }]);
    return { quantity: body.usage_kwh as number, notes: [] };
  }
  if (given(body.usage_kwh)) throw unprocessable(`usage_kwh is for electric tariffs: ${tariff.id} prices ${utilityType}, send usage and unit`, 'usage_kwh');
  if (!given(body.usage)) throw validationFailed([{ field: 'usage', message: `field required (the month's ${utilityType} usage, with its unit)` }]);
  const electricField = ELECTRIC_ONLY.find((f) => given(body[f]));
  if (electricField) throw unprocessable(`${electricField} does not apply to a ${utilityType} tariff`, electricField);
  const conversion = convertUsage(utilityType, body.usage as number, body.unit ?? unit, unit, body.heat_content);
  if (!conversion.ok) throw unprocessable(conversion.message, conversion.field);
  return { quantity: conversion.quantity, notes: conversion.note ? [conversion.note] : [] };
}

export function billRequest(body: UsageFields, month: number, usage: TariffUsage, supplyTariff: Tariff | null): BillRequest {
  const p = body.usage_profile;
  return {
    usageKwh: usage.quantity,
    month,
    demandKw: body.demand_kw ?? null,
    solarGenerationKwh: body.solar_generation_kwh ?? null,
    usageProfile: p ? { onPeakKwh: p.on_peak_kwh, midPeakKwh: p.mid_peak_kwh, offPeakKwh: p.off_peak_kwh } : null,
    taxRatePercent: body.tax_rate_percent ?? null,
    supplyRatePerKwh: body.supply_rate_per_kwh ?? null,
    supplyTariff,
  };
}
