/**
 * What other modules may use of portfolios' tables (the lint rule lets them import nothing else of
 * its tables or repository): a read-only view of whose each portfolio is.
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { portfolios } from './tables';

/** A portfolio's id and owner, as a subquery named `alias`: read, never written. In raw SQL its columns keep their database names (`pf.owner_id`). */
export const viewOfPortfolios = <A extends string>(alias: A) =>
  new QueryBuilder().select({ id: portfolios.id, ownerId: portfolios.ownerId }).from(portfolios).as(alias);
