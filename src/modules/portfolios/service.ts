import type { Db } from '../../platform/db/client';
import { notFound } from '../../platform/http/errors';
import { offsetOf, toPage, type PageQuery } from '../../platform/http/pagination';
import { roundDiv, toCents } from '../../platform/money';
import { createPortfolioRepository, type PortfolioRow } from './repository';
import type { CreatePortfolioInput } from './schemas';

function present(row: PortfolioRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? null,
    owner_id: row.ownerId,
    created_at: row.createdAt.toISOString(),
  };
}

export function createPortfolioService(deps: { db: Db; dataChanged?(ownerId: string): Promise<void> }) {
  const repo = createPortfolioRepository(deps.db);

  /** The caller's portfolio or 404 (someone else's is reported as not found too). */
  async function requireOwned(ownerId: string, id: string): Promise<PortfolioRow> {
    const row = await repo.findOwned(ownerId, id);
    if (!row) throw notFound('Portfolio not found');
    return row;
  }

  return {
    requireOwned,

    async create(ownerId: string, input: CreatePortfolioInput) {
      const row = await repo.insert(ownerId, { name: input.name, description: input.description ?? null });
      await deps.dataChanged?.(ownerId);
      return present(row);
    },

    async list(ownerId: string, q: PageQuery) {
      const { rows, total } = await repo.listOwned(ownerId, q.per_page, offsetOf(q));
      const items = rows.map((r) => ({
        id: r.id,
        name: r.name,
        description: r.description ?? null,
        property_count: r.propertyCount,
        created_at: r.createdAt.toISOString(),
      }));
      return toPage(items, total, q);
    },

    /**
     * Detail with summary. Costs are each property's bill-engine estimate (see the property
     * service): total_annual_cost is their sum, total_monthly_cost that sum / 12, and
     * avg_cost_per_kwh the annual cost over the annual kWh of the same (priced) properties.
     */
    async detail(ownerId: string, id: string) {
      const row = await requireOwned(ownerId, id);
      const totals = await repo.costTotals(row.id);
      const annualCents = toCents(totals.annualCost);
      const kwhMilli = Math.round(totals.annualKwh * 1000);
      return {
        ...present(row),
        summary: {
          property_count: totals.propertyCount,
          total_monthly_cost: roundDiv(annualCents, 12) / 100,
          total_annual_cost: annualCents / 100,
          // $/kWh to 4 decimals: (cents / 100) / (milli-kWh / 1000) x 10^4 = cents x 10^5 / milli-kWh
          avg_cost_per_kwh: kwhMilli === 0 ? 0 : roundDiv(BigInt(annualCents) * 100000n, kwhMilli) / 10000,
          total_sqft: totals.totalSqft,
        },
      };
    },
  };
}

export type PortfolioService = ReturnType<typeof createPortfolioService>;
