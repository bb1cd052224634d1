import type { BillingErrorCode } from './engine';

/**
 * Why a bill cannot be priced: `tariff_not_found` (no such tariff for the caller), `no_tariff_in_force`
 * (no version of it on a day of the period), `period_invalid` (a period reversed or longer than a
 * quarter), `usage_invalid` (usage that does not fit the tariff), `supply_invalid` (a supply contract
 * that is not one, or of another utility type), or the engine's refusals (BillingErrorCode).
 */
export type PricingErrorCode =
  'tariff_not_found' | 'no_tariff_in_force' | 'period_invalid' | 'usage_invalid' | 'supply_invalid' | BillingErrorCode;

/** A bill pricing refused, in domain terms; the API answers 404 for `tariff_not_found` and 422 with `message` for the rest. */
export interface PricingError {
  code: PricingErrorCode;
  message: string;
  /** The request field it is about (as /calculate names it). */
  field: string;
}

/** Day `day` is before the tariff's first version (`firstTakesEffect`). */
export const notInForce = (tariffId: string, day: string, firstTakesEffect: string, field: string): PricingError => ({
  code: 'no_tariff_in_force',
  field,
  message: `tariff ${tariffId} has no version in force on ${day}: its first takes effect ${firstTakesEffect}`,
});
