/** Text forms of amounts and quantities for statements (en-US, as a US tenant reads them). */

/** $1,234.56; negative as -$0.01 (platform/money.ts). */
export { usd } from '../../platform/money';

/** 1,234.5678: grouped, at most 4 decimals. */
export function quantity(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 4 });
}

/** 37.50% (two decimals, as allocation_percent is). */
export function percent2(value: number): string {
  return `${value.toFixed(2)}%`;
}

/** 5% or 2.5% (a configured percentage as written). */
export function percentAsWritten(value: number): string {
  return `${quantity(value)}%`;
}
