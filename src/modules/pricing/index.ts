/**
 * What other modules use of pricing: pricePeriod over a tariff's versions (the bill audit, rate
 * analysis) and the service that looks them up and answers POST /calculate and /calculate/compare.
 */
export { pricePeriod } from './price-period';
export type { BillingPeriod, PeriodToPrice, PricedPeriod, PricePeriodResult } from './price-period';
export type { PricingError, PricingErrorCode } from './pricing-error';
export type { BillUsage, UsageInputs } from './tariff-usage';
export { createPricingService } from './service';
export type { PricingDeps, PricingService, TariffOverPeriod, TariffOverPeriods } from './service';
export { tariffReadsOnce, type TariffReads } from './tariff-reads';
export type { LoadShapeSet } from './engine';
