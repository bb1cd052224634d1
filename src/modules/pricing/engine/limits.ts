/**
 * Largest quantities a bill accepts: far above any single meter's month
 * (1 TWh, 10 GW), and small enough that every amount stays exact in integer cents.
 */
export const MAX_USAGE_KWH = 1e9;
export const MAX_DEMAND_KW = 1e7;
export const MAX_TAX_RATE_PERCENT = 100;
/** A retail supply price above $5/kWh is a typing error, not a contract (US retail prices are cents). */
export const MAX_SUPPLY_RATE_PER_KWH = 5;
