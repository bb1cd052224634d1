/**
 * What other modules may use of bills' tables (the lint rule lets them import nothing else of its
 * tables or repository): a read-only view of which meter a bill is on, the period it covers and what it used.
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { bills } from './tables';

/** A bill's id, property, meter, period and usage (in its unit), as a subquery named `alias`: read, never written. */
export const viewOfBills = <A extends string>(alias: A) => new QueryBuilder()
  .select({
    id: bills.id, propertyId: bills.propertyId, meterId: bills.meterId,
    periodStart: bills.periodStart, periodEnd: bills.periodEnd,
    utilityType: bills.utilityType, usage: bills.usage, unit: bills.unit,
  })
  .from(bills)
  .as(alias);
