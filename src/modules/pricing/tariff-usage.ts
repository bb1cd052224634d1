/**
 * What a bill is priced for besides the tariff, checked against the tariff it is priced on (pricing
 * README "Units"): kWh on electric tariffs; on gas, water and sewer ones a usage in a unit of that
 * type, converted to the tariff's unit. Pure.
 */
import { usageOf, type Tariff } from '../tariffs/tariff.model';
import type { BillRequest, IntervalData } from './engine';
import type { PricingError } from './pricing-error';
import { convertUsage } from './usage-units';
import { toMilli } from './engine/money';

/** The usage of a bill: `kwh` on electric tariffs, `quantity` (in `unit`) on gas, water and sewer ones. */
export interface BillUsage {
  kwh?: number | null;
  /** In `unit`; the tariff's unit when `unit` is null. */
  quantity?: number | null;
  unit?: string | null;
  /** Therms per ccf, as the gas bill states it: converts a gas volume to heat units (or back). */
  heatContent?: number | null;
}

/**
 * The usage, and what only electric bills take beside it, as the engine's BillRequest takes them;
 * a meter's interval data is the usage when `usage.kwh` is not given.
 */
export interface UsageInputs extends Pick<
  BillRequest,
  'demandKw' | 'solarGenerationKwh' | 'usageProfile' | 'supplyRatePerKwh' | 'intervals'
> {
  usage: BillUsage;
}

/** The intervals' kWh, each to the Wh as the engine meters them. */
const intervalsKwh = (data: IntervalData) => data.kwh.reduce((sum, kwh) => sum + toMilli(kwh), 0) / 1000;

/** The usage a tariff is priced for, in its unit, and what converting it assumed. */
export interface TariffUsage {
  quantity: number;
  notes: string[];
}

const given = (v: unknown) => v !== undefined && v !== null;

/** The inputs' usage in the tariff's unit, or why the tariff cannot be priced for them. */
export function tariffUsage(inputs: UsageInputs, tariff: Tariff): { ok: true; usage: TariffUsage } | { ok: false; error: PricingError } {
  const { utilityType, unit } = usageOf(tariff);
  const { usage } = inputs;
  const refuse = (field: string, message: string) => ({ ok: false as const, error: { code: 'usage_invalid' as const, message, field } });
  if (utilityType === 'electric') {
    if (given(usage.quantity) || given(usage.unit)) {
      return refuse(
        given(usage.quantity) ? 'usage' : 'unit',
        `usage and unit are for gas, water and sewer tariffs: ${tariff.id} is electric, send usage_kwh`,
      );
    }
    if (!given(usage.kwh) && inputs.intervals) return { ok: true, usage: { quantity: intervalsKwh(inputs.intervals), notes: [] } };
    if (!given(usage.kwh)) return refuse('usage_kwh', 'field required');
    return { ok: true, usage: { quantity: usage.kwh as number, notes: [] } };
  }
  if (given(usage.kwh))
    return refuse('usage_kwh', `usage_kwh is for electric tariffs: ${tariff.id} prices ${utilityType}, send usage and unit`);
  if (!given(usage.quantity)) return refuse('usage', `field required (the month's ${utilityType} usage, with its unit)`);
  const electricOnly: Array<[string, unknown]> = [
    ['demand_kw', inputs.demandKw],
    ['solar_generation_kwh', inputs.solarGenerationKwh],
    ['usage_profile', inputs.usageProfile],
    ['supply_rate_per_kwh', inputs.supplyRatePerKwh],
    ['intervals', inputs.intervals],
  ];
  const electricField = electricOnly.find(([, value]) => given(value));
  if (electricField) return refuse(electricField[0], `${electricField[0]} does not apply to a ${utilityType} tariff`);
  const conversion = convertUsage(utilityType, usage.quantity as number, usage.unit ?? unit, unit, usage.heatContent);
  if (!conversion.ok) return refuse(conversion.field, conversion.message);
  return { ok: true, usage: { quantity: conversion.quantity, notes: conversion.note ? [conversion.note] : [] } };
}
