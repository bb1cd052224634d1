/**
 * What other modules may use of bills' tables (the lint rule lets them import nothing else of its
 * tables or repository): a read-only view of which meter a bill is on and the period it covers.
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { bills } from './tables';

/** A bill's id, property, meter and period, as a subquery named `alias`: read, never written. */
export const viewOfBills = <A extends string>(alias: A) => new QueryBuilder()
  .select({
    id: bills.id, propertyId: bills.propertyId, meterId: bills.meterId,
    periodStart: bills.periodStart, periodEnd: bills.periodEnd,
  })
  .from(bills)
  .as(alias);
