import crypto from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { pageOfRows, rowWhere } from '../../platform/db/rows';
import { portfolios } from './tables';
import { propertyView } from '../properties/public';

export type PortfolioRow = typeof portfolios.$inferSelect;

/** What portfolio detail counts of the properties themselves (their costs are analytics', see the service). */
export interface PortfolioPropertyTotals {
  propertyCount: number;
  totalSqft: number;
}

export function createPortfolioRepository(db: Executor) {
  return {
    async insert(ownerId: string, input: { name: string; description: string | null }): Promise<PortfolioRow> {
      const [row] = await db
        .insert(portfolios)
        .values({ id: crypto.randomUUID(), ownerId, name: input.name, description: input.description })
        .returning();
      return row!;
    },

    /** The owner's portfolio, or null when it does not exist or is someone else's. */
    async findOwned(ownerId: string, id: string): Promise<PortfolioRow | null> {
      return rowWhere(db, portfolios, and(eq(portfolios.id, id), eq(portfolios.ownerId, ownerId)));
    },

    async listOwned(ownerId: string, limit: number, offset: number) {
      // The outer column is qualified by hand: in a one-table select drizzle renders columns
      // unqualified, and a bare "id" would name the property's id inside the subquery.
      const portfolioId = sql`${portfolios}.${sql.identifier(portfolios.id.name)}`;
      const propertyCount = sql<number>`(select count(*) from ${propertyView} where ${propertyView.portfolioId} = ${portfolioId})`.mapWith(
        Number,
      );
      const list = db
        .select({
          id: portfolios.id,
          name: portfolios.name,
          description: portfolios.description,
          createdAt: portfolios.createdAt,
          propertyCount,
        })
        .from(portfolios)
        .where(eq(portfolios.ownerId, ownerId))
        .orderBy(desc(portfolios.createdAt), desc(portfolios.id));
      return pageOfRows(db, list, { table: portfolios, where: eq(portfolios.ownerId, ownerId) }, limit, offset);
    },

    /** The portfolio's properties counted, and their sqft summed. */
    async propertyTotals(portfolioId: string): Promise<PortfolioPropertyTotals> {
      const [row] = await db
        .select({
          propertyCount: sql<number>`count(*)`.mapWith(Number),
          totalSqft: sql<number>`coalesce(sum(${propertyView.sqft}), 0)`.mapWith(Number),
        })
        .from(propertyView)
        .where(eq(propertyView.portfolioId, portfolioId));
      return { propertyCount: row?.propertyCount ?? 0, totalSqft: row?.totalSqft ?? 0 };
    },
  };
}
