/**
 * What other modules may use of bills' tables (the lint rule lets them import nothing else of its
 * tables or repository): a read-only view of the bills (the audit re-prices them, analytics sums
 * them) and the row type.
 */
import { getTableColumns } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { bills } from './tables';

export type { BillRow } from './repository';

/** Every column of the bills, as a subquery named `alias`: read, never written. In raw SQL its columns keep their database names (`b.meter_id`). */
export const viewOfBills = <A extends string>(alias: A) => new QueryBuilder().select(getTableColumns(bills)).from(bills).as(alias);
