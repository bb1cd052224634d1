/**
 * A bill priced from its meter's interval readings whose typed usage disagrees with them (README
 * "Interval data"): the expected bill is the readings', and the bill's kWh is a finding to check.
 * Pure.
 */
import type { AuditBill, BillPricing, Finding } from './audit.types';

/** The bill's kWh and the readings' agree within this percent of the readings' (else a finding). */
export const USAGE_MISMATCH_PERCENT = 2;

const kwhText = (kwh: number) => `${kwh.toLocaleString('en-US', { maximumFractionDigits: 3 })} kWh`;

/** The interval_usage_mismatch finding of a bill priced from intervals, or null. */
export function intervalUsageMismatch(bill: AuditBill, priced: Extract<BillPricing, { kind: 'priced' }>): Finding | null {
  const measured = priced.intervals;
  if (!measured || measured.billKwh === null) return null;
  const { kwh, billKwh } = measured;
  const differenceMilli = Math.round(billKwh * 1000) - Math.round(kwh * 1000);
  // Percent of the readings', one decimal, half away from zero (in tenths of a percent: 1000 x difference / readings).
  const tenths = kwh > 0 ? Math.sign(differenceMilli) * Math.round((Math.abs(differenceMilli) * 1000) / Math.round(kwh * 1000)) : null;
  if (differenceMilli === 0 || (tenths !== null && Math.abs(tenths) <= USAGE_MISMATCH_PERCENT * 10)) return null;
  const percent = tenths === null ? null : tenths / 10;
  const how =
    percent === null
      ? 'while the readings add up to 0 kWh'
      : `${Math.abs(percent)} % ${percent > 0 ? 'more' : 'less'} than the meter's interval readings over its period, ${kwhText(kwh)}`;
  return {
    billId: bill.id,
    reason: 'interval_usage_mismatch',
    severity: 'medium',
    amountCents: null,
    message:
      `the bill's usage, ${kwhText(billKwh)}, is ${how}: the expected bill is priced from the readings; ` +
      "check the bill's usage (a misread or estimated register) and that the readings are this meter's",
    details: { bill_kwh: billKwh, interval_kwh: kwh, difference_percent: percent, basis: 'intervals' },
  };
}
