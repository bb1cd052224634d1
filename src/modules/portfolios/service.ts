import type { Db } from '../../platform/db/client';
import { requireOwnedBy } from '../../platform/http/owned';
import { offsetOf, toPage, type PageQuery } from '../../platform/http/pagination';
import { roundDiv } from '../../platform/money';
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

/** A portfolio's one annual cost (analytics README "One annual cost"), summed over its properties. */
export interface PortfolioAnnualCost {
  /** The properties' annual costs summed, in cents (0 when none has one). */
  cents: number;
  /** Electric dollars over electric kWh of the properties whose electric figure has kWh, 4 decimals; null without any. */
  perKwh: number | null;
}

export interface PortfolioServiceDeps {
  db: Db;
  /** Queues the owner's analytics recompute after a write (never throws). */
  dataChanged?(ownerId: string): Promise<void>;
  /** The portfolio's one annual cost (analytics, up to date with every write; the portfolio is the owner's). */
  annualCost(ownerId: string, portfolioId: string): Promise<PortfolioAnnualCost>;
}

export function createPortfolioService(deps: PortfolioServiceDeps) {
  const repo = createPortfolioRepository(deps.db);

  const requireOwned = requireOwnedBy(repo.findOwned, 'Portfolio not found');

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
     * Detail with summary: total_annual_cost is the properties' one annual cost summed, as portfolio
     * analytics sums it (actual bills scaled to the year, else the tariff estimate; every utility
     * type), total_monthly_cost that sum / 12, avg_cost_per_kwh electric dollars over electric kWh.
     * Properties without an annual cost count in property_count and total_sqft only.
     */
    async detail(ownerId: string, id: string) {
      const row = await requireOwned(ownerId, id);
      const [totals, annual] = await Promise.all([repo.propertyTotals(row.id), deps.annualCost(ownerId, row.id)]);
      return {
        ...present(row),
        summary: {
          property_count: totals.propertyCount,
          total_monthly_cost: roundDiv(annual.cents, 12) / 100,
          total_annual_cost: annual.cents / 100,
          avg_cost_per_kwh: annual.perKwh ?? 0,
          total_sqft: totals.totalSqft,
        },
      };
    },
  };
}

export type PortfolioService = ReturnType<typeof createPortfolioService>;
