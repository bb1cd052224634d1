/**
 * What other modules may use of bills' tables (the lint rule lets them import nothing else of its
 * tables or repository): a read-only view of which meter a bill is on and the period it covers.
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { utilityBills } from './tables';

/** A bill's id, property, meter and period, as a subquery named `alias`: read, never written. */
export const viewOfBills = <A extends string>(alias: A) => new QueryBuilder()
  .select({
    id: utilityBills.id, propertyId: utilityBills.propertyId, meterId: utilityBills.meterId,
    periodStart: utilityBills.periodStart, periodEnd: utilityBills.periodEnd,
  })
  .from(utilityBills)
  .as(alias);
