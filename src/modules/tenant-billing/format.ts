/** Text forms of amounts and quantities for statements (en-US, as a US tenant reads them). */

/** $1,234.56 (a presented 2-decimal amount); negative as -$0.01. */
export function usd(amount: number): string {
  const cents = Math.round(Math.abs(amount) * 100);
  const dollars = Math.floor(cents / 100).toLocaleString('en-US');
  return `${amount < 0 && cents > 0 ? '-' : ''}$${dollars}.${String(cents % 100).padStart(2, '0')}`;
}

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
