/**
 * What other modules may use of the audit's tables (the lint rule lets them import nothing else of
 * its tables or repository): a read-only view of the findings, which analytics sums for the
 * dashboards and the health score.
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { auditFindings } from './tables';

/** A finding's owner, property, bill, reason, severity, status and dollars at issue, as a subquery named `alias`: read, never written. In raw SQL its columns keep their database names (`f.amount_cents`). */
export const viewOfAuditFindings = <A extends string>(alias: A) =>
  new QueryBuilder()
    .select({
      id: auditFindings.id,
      ownerId: auditFindings.ownerId,
      propertyId: auditFindings.propertyId,
      billId: auditFindings.billId,
      reason: auditFindings.reason,
      severity: auditFindings.severity,
      status: auditFindings.status,
      amountCents: auditFindings.amountCents,
    })
    .from(auditFindings)
    .as(alias);
