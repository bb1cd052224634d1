/**
 * Causes that belong to the meter, not to one bill (README "Rules", "One finding per cause"): the
 * tariff pricing its bills expired, or its demand is above the tariff's limit. Each is stated once
 * per meter and cause, with the bills it covers, on the first of them (a later bill with the same
 * cause widens it; the finding keeps its id and any resolution): 200 bills on an expired tariff
 * across 8 meters are 8 findings, not 200.
 */
import type { AuditBill, BillPricing, Finding } from './audit.types';

type Priced = Extract<BillPricing, { kind: 'priced' }>;

interface Cause {
  reason: 'expired_tariff' | 'demand_above_applicability';
  pricing: Priced;
  bills: AuditBill[];
}

/** "2025-01-01 to 2025-03-31" over the bills a cause covers (in period order). */
const span = (bills: AuditBill[]) => `${bills[0]!.periodStart} to ${bills.at(-1)!.periodEnd}`;
const counted = (n: number) => `${n} bill${n === 1 ? '' : 's'}`;
const covered = (bills: AuditBill[], extra: (b: AuditBill) => Record<string, unknown> = () => ({})) =>
  bills.map((b) => ({ bill_id: b.id, period_start: b.periodStart, period_end: b.periodEnd, ...extra(b) }));

function findingOf({ reason, pricing: p, bills }: Cause): Finding {
  const first = bills[0]!;
  if (reason === 'expired_tariff') {
    return {
      billId: first.id,
      reason,
      severity: 'medium',
      amountCents: null,
      message: `${p.tariffName} expired on ${p.expiredOn}, before the end of ${counted(bills.length)} priced on it (${span(bills)}): the utility bills other rates now`,
      details: { expired_on: p.expiredOn, tariff_id: p.tariffId, bill_count: bills.length, bills: covered(bills) },
    };
  }
  const highest = Math.max(...bills.map((b) => b.demandKw as number));
  return {
    billId: first.id,
    reason,
    severity: 'high',
    amountCents: null,
    message:
      `demand above ${p.tariffName}'s limit of ${p.demandKwMax} kW on ${counted(bills.length)} (${span(bills)}; up to ${highest} kW): ` +
      'the meter may belong on another rate class',
    details: {
      demand_kw_max: p.demandKwMax,
      tariff_id: p.tariffId,
      highest_demand_kw: highest,
      bill_count: bills.length,
      bills: covered(bills, (b) => ({ demand_kw: b.demandKw })),
    },
  };
}

/**
 * The meter-level findings of a meter's bills (`bills` in period order), by the bill each is stated
 * on. One per tariff and expiry day, and one per tariff and demand limit.
 */
export function meterCauses(bills: AuditBill[], pricing: ReadonlyMap<string, BillPricing>): Map<string, Finding[]> {
  const causes = new Map<string, Cause>();
  const add = (key: string, reason: Cause['reason'], p: Priced, bill: AuditBill) => {
    const cause = causes.get(key);
    if (cause) cause.bills.push(bill);
    else causes.set(key, { reason, pricing: p, bills: [bill] });
  };
  for (const bill of bills) {
    const p = pricing.get(bill.id);
    if (p?.kind !== 'priced') continue;
    if (p.expiredOn !== null) add(`expired|${p.tariffId}|${p.expiredOn}`, 'expired_tariff', p, bill);
    if (bill.demandKw !== null && p.demandKwMax !== null && bill.demandKw > p.demandKwMax)
      add(`demand|${p.tariffId}|${p.demandKwMax}`, 'demand_above_applicability', p, bill);
  }
  const byBill = new Map<string, Finding[]>();
  for (const cause of causes.values()) {
    const finding = findingOf(cause);
    const list = byBill.get(finding.billId);
    if (list) list.push(finding);
    else byBill.set(finding.billId, [finding]);
  }
  return byBill;
}
