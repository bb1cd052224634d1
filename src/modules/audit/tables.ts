import { sql } from 'drizzle-orm';
import { bigint, check, date, index, jsonb, numeric, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { cascadingRef, createdAt, generatedId, quoted, timestamptz, updatedAt } from '../../platform/db/columns';
import { users } from '../accounts/tables';
import { meters } from '../meters/tables';
import { properties } from '../properties/tables';
import { bills } from '../bills/tables';
import { FINDING_STATUSES } from './disputes/dispute.calc';
import { BILL_AUDIT_STATUSES, PRICING_BASES, RESOLUTIONS, SEVERITIES } from './audit.types';

/**
 * The latest audit of each bill (README "Re-pricing"): what the engine expected on the bill's
 * tariff over its period, against what was billed. Rewritten whenever the bill's meter is audited.
 */
export const billAudits = pgTable(
  'bill_audits',
  {
    billId: cascadingRef('bill_id', () => bills.id).primaryKey(),
    ownerId: cascadingRef('owner_id', () => users.id),
    propertyId: text('property_id').notNull(),
    meterId: text('meter_id').notNull(),
    /** ok, variance (a price_variance finding), or unpriceable (`reason` says why). */
    status: text('status').notNull(),
    reason: text('reason'),
    expectedCents: bigint('expected_cents', { mode: 'number' }),
    varianceCents: bigint('variance_cents', { mode: 'number' }),
    variancePercent: numeric('variance_percent', { precision: 12, scale: 1, mode: 'number' }),
    tariffId: text('tariff_id'),
    expectedLines: jsonb('expected_lines').$type<Array<{ category: string; name: string; amount: number }>>(),
    /** What the expected amount was priced from: 'intervals' (the meter's readings covering the period) or 'bill'; null when unpriced. */
    basis: text('basis'),
    /** Why the meter's interval readings were not used, where it has some (README "Interval data"). */
    basisNote: text('basis_note'),
    auditedAt: timestamptz('audited_at').notNull(),
  },
  (t) => [
    check('bill_audits_status_check', sql`${t.status} in (${quoted(BILL_AUDIT_STATUSES)})`),
    check('bill_audits_basis_check', sql`${t.basis} in (${quoted(PRICING_BASES)})`),
    index('bill_audits_meter_idx').on(t.meterId),
  ],
);

/**
 * When the stored audit of a meter read its inputs (the database's clock). An audit stores only if
 * it read after the one stored: two audits of a meter running at once (a bill's job and an owner's
 * re-audit) leave the one that saw the latest bills, whichever finishes last.
 */
export const meterAudits = pgTable('meter_audits', {
  meterId: cascadingRef('meter_id', () => meters.id).primaryKey(),
  /** '-infinity' until an audit has read the meter (a row made by a request). */
  readAt: timestamp('read_at', { withTimezone: true, mode: 'string' }).notNull(),
  /**
   * When an audit of the meter was last asked for (a write changed its bills or what prices them).
   * The stored audit is stale while this is later than `read_at` (README "Endpoints").
   */
  requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'string' }),
});

/** What an audit found on a bill, one per bill and reason; open until its owner resolves it. */
export const auditFindings = pgTable(
  'audit_findings',
  {
    id: generatedId(),
    ownerId: cascadingRef('owner_id', () => users.id),
    propertyId: cascadingRef('property_id', () => properties.id),
    meterId: text('meter_id').notNull(),
    billId: cascadingRef('bill_id', () => bills.id),
    reason: text('reason').notNull(),
    severity: text('severity').notNull(),
    /** Dollars at issue in cents (positive: billed more than it should be); null where the rule has none. */
    amountCents: bigint('amount_cents', { mode: 'number' }),
    message: text('message').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull().default('open'),
    resolution: text('resolution'),
    note: text('note'),
    resolvedAt: timestamptz('resolved_at'),
    /** A dispute with the utility (README "Disputes and recovered money"): the day the claim was filed, its reference, the cents claimed. */
    disputedOn: date('disputed_on', { mode: 'string' }),
    claimReference: text('claim_reference'),
    amountClaimedCents: bigint('amount_claimed_cents', { mode: 'number' }),
    /** A credited dispute: the credit, and the later bill of the meter that carries it (null once that bill is deleted). */
    creditCents: bigint('credit_cents', { mode: 'number' }),
    creditBillId: text('credit_bill_id').references(() => bills.id, { onDelete: 'set null' }),
    /** A credited or denied dispute: the day the utility answered. */
    disputeClosedOn: date('dispute_closed_on', { mode: 'string' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('audit_findings_bill_reason_key').on(t.billId, t.reason),
    index('audit_findings_owner_idx').on(t.ownerId, t.status, t.createdAt),
    // A property's findings (its findings filter; deleting a property cascades here).
    index('audit_findings_property_idx').on(t.propertyId),
    check('audit_findings_severity_check', sql`${t.severity} in (${quoted(SEVERITIES)})`),
    check('audit_findings_status_check', sql`${t.status} in (${quoted(FINDING_STATUSES)})`),
    // A finding in dispute has its claim, a claim asks at least a cent and no more than an overcharge at issue, and only a
    // credited one has a credit, of at most the claim; a closed dispute has the day it closed, not before it was filed.
    check(
      'audit_findings_dispute_check',
      sql`(${t.status} in ('disputed', 'credited', 'denied'))
      = (${t.disputedOn} is not null and ${t.claimReference} is not null and ${t.amountClaimedCents} is not null)
      and char_length(coalesce(${t.claimReference}, 'x')) between 1 and 100
      and coalesce(${t.amountClaimedCents}, 1) > 0
      and (${t.amountCents} is null or ${t.amountCents} <= 0 or coalesce(${t.amountClaimedCents}, 0) <= ${t.amountCents})`,
    ),
    check(
      'audit_findings_credit_check',
      sql`(${t.status} = 'credited') = (${t.creditCents} is not null)
      and (${t.status} = 'credited' or ${t.creditBillId} is null)
      and coalesce(${t.creditCents}, 1) > 0 and coalesce(${t.creditCents}, 0) <= coalesce(${t.amountClaimedCents}, 0)
      and (${t.status} in ('credited', 'denied')) = (${t.disputeClosedOn} is not null)
      and coalesce(${t.disputeClosedOn} >= ${t.disputedOn}, true)`,
    ),
    // The credits a meter's bills carry (read by every audit of the meter).
    index('audit_findings_credit_bill_idx')
      .on(t.creditBillId)
      .where(sql`${t.creditBillId} is not null`),
    // Disputes still open, oldest first (the daily reminder).
    index('audit_findings_open_dispute_idx')
      .on(t.disputedOn)
      .where(sql`${t.status} = 'disputed'`),
    check('audit_findings_resolution_check', sql`${t.resolution} in (${quoted(RESOLUTIONS)})`),
  ],
);

/** An owner's audit settings; an owner without a row has the defaults. */
export const auditSettings = pgTable('audit_settings', {
  ownerId: cascadingRef('owner_id', () => users.id).primaryKey(),
  /** A variance within this percent of the expected amount is ok. */
  tolerancePercent: numeric('tolerance_percent', { precision: 5, scale: 2, mode: 'number' }).notNull().default(3),
  updatedAt: updatedAt(),
});
