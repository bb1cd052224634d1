/** Shared set-up of the bill audit calculator's tests: bills, prices and siblings to audit, and short call helpers. */
import { auditMeterBills } from './audit.calc';
import type { AuditBill, BillAudit, BillPricing, Finding, ReasonCode, SiblingBill } from './audit.types';

export type Priced = Extract<BillPricing, { kind: 'priced' }>;

/** A bill of meter m1 (id: its start date unless given), $100.00 for 1000 kWh, actual read, no lines. */
export const bill = (periodStart: string, periodEnd: string, extra: Partial<AuditBill> = {}): AuditBill => ({
  id: periodStart,
  meterId: 'm1',
  periodStart,
  periodEnd,
  amountCents: 10000,
  usage: 1000,
  unit: 'kWh',
  demandKw: null,
  isEstimated: false,
  lineItems: null,
  createdAt: new Date('2025-08-01T00:00:00Z'),
  ...extra,
});

/** The engine's price of a bill on tariff E-1 (t1): nothing but the expected amount unless given. */
export const priced = (expectedCents: number, extra: Partial<Priced> = {}): Priced => ({
  kind: 'priced',
  tariffId: 't1',
  tariffName: 'E-1',
  expectedCents,
  expectedLines: [],
  demandKwMax: null,
  expiredOn: null,
  yearRangeCents: null,
  explanation: null,
  basis: 'bill',
  basisNote: null,
  intervals: null,
  ...extra,
});

export const sibling = (id: string, periodStart: string, periodEnd: string, amountCents: number, createdAt: string): SiblingBill => ({
  id,
  meterId: 'm2',
  periodStart,
  periodEnd,
  amountCents,
  createdAt: new Date(createdAt),
});

/** Audits a meter's bills; pricing by bill id (a bill without one is unpriceable). */
export const audit = (
  bills: AuditBill[],
  pricing: Record<string, BillPricing> = {},
  options: { siblings?: SiblingBill[]; tolerancePercent?: number } = {},
) =>
  auditMeterBills({
    bills,
    pricing: new Map(Object.entries(pricing)),
    siblings: options.siblings ?? [],
    settings: { tolerancePercent: options.tolerancePercent ?? 3 },
  });

/** The audit of a one-bill meter priced at `expectedCents` (by default what was billed). */
export const auditOne = (b: AuditBill, p: Partial<Priced> = {}, tolerancePercent = 3): BillAudit =>
  audit([b], { [b.id]: priced(p.expectedCents ?? b.amountCents, p) }, { tolerancePercent })[0]!;

export const findingsOf = (a: BillAudit, reason: ReasonCode): Finding[] => a.findings.filter((f) => f.reason === reason);
export const reasons = (a: BillAudit): ReasonCode[] => a.findings.map((f) => f.reason);

/** The year-earlier bill of the year-over-year tests: June 2024, 30 days, 3000 kWh (100 kWh a day), $300.00 (30000 c, $10.00 a day). */
export const june2024 = (extra: Partial<AuditBill> = {}) =>
  bill('2024-06-01', '2024-06-30', { id: 'y1', usage: 3000, amountCents: 30000, ...extra });

/**
 * The audit of a bill `priced` (above) at `expectedCents` and billed exactly that: status ok, no variance, tariff t1,
 * no expected lines, priced from the bill, no basis note, no findings. `extra` states what a test expects to differ.
 */
export const pricedAudit = (billId: string, expectedCents: number, extra: Partial<BillAudit> = {}): BillAudit => ({
  billId,
  status: 'ok',
  reason: null,
  expectedCents,
  varianceCents: 0,
  variancePercent: 0,
  tariffId: 't1',
  expectedLines: [],
  basis: 'bill',
  basisNote: null,
  findings: [],
  ...extra,
});

const FIGURES = ['expectedCents', 'varianceCents', 'variancePercent', 'tariffId', 'expectedLines', 'basis', 'basisNote'] as const;
/** Every expected figure of a BillAudit null. */
const NO_FIGURES = Object.fromEntries(FIGURES.map((k) => [k, null])) as { [K in (typeof FIGURES)[number]]: null };

/** The audit of a bill the engine could not price for `reason`: no expected figures of any kind, no findings unless given. */
export const unpricedAudit = (billId: string, reason: string, extra: Partial<BillAudit> = {}): BillAudit => ({
  billId,
  status: 'unpriceable',
  reason,
  ...NO_FIGURES,
  findings: [],
  ...extra,
});
