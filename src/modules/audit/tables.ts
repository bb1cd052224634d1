import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, numeric, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { users } from '../accounts/tables';
import { meters } from '../meters/tables';
import { properties } from '../properties/tables';
import { utilityBills } from '../bills/tables';

/**
 * The latest audit of each bill (README "Re-pricing"): what the engine expected on the bill's
 * tariff over its period, against what was billed. Rewritten whenever the bill's meter is audited.
 */
export const billAudits = pgTable(
  'bill_audits',
  {
    billId: text('bill_id').primaryKey().references(() => utilityBills.id, { onDelete: 'cascade' }),
    ownerId: text('owner_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
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
    auditedAt: timestamp('audited_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    check('bill_audits_status_check', sql`${t.status} in ('ok', 'variance', 'unpriceable')`),
    index('bill_audits_meter_idx').on(t.meterId),
  ],
);

/**
 * When the stored audit of a meter read its inputs (the database's clock). An audit stores only if
 * it read after the one stored: two audits of a meter running at once (a bill's job and an owner's
 * re-audit) leave the one that saw the latest bills, whichever finishes last.
 */
export const meterAudits = pgTable('meter_audits', {
  meterId: text('meter_id').primaryKey().references(() => meters.id, { onDelete: 'cascade' }),
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
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    ownerId: text('owner_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    propertyId: text('property_id').notNull().references(() => properties.id, { onDelete: 'cascade' }),
    meterId: text('meter_id').notNull(),
    billId: text('bill_id').notNull().references(() => utilityBills.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    severity: text('severity').notNull(),
    /** Dollars at issue in cents (positive: billed more than it should be); null where the rule has none. */
    amountCents: bigint('amount_cents', { mode: 'number' }),
    message: text('message').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull().default('open'),
    resolution: text('resolution'),
    note: text('note'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    unique('audit_findings_bill_reason_key').on(t.billId, t.reason),
    index('audit_findings_owner_idx').on(t.ownerId, t.status, t.createdAt),
    // A property's findings (its findings filter; deleting a property cascades here).
    index('audit_findings_property_idx').on(t.propertyId),
    check('audit_findings_severity_check', sql`${t.severity} in ('low', 'medium', 'high')`),
    check('audit_findings_status_check', sql`${t.status} in ('open', 'resolved')`),
    check('audit_findings_resolution_check', sql`${t.resolution} in ('disputed', 'accepted', 'corrected')`),
  ],
);

/** An owner's audit settings; an owner without a row has the defaults. */
export const auditSettings = pgTable('audit_settings', {
  ownerId: text('owner_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  /** A variance within this percent of the expected amount is ok. */
  tolerancePercent: numeric('tolerance_percent', { precision: 5, scale: 2, mode: 'number' }).notNull().default(3),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
