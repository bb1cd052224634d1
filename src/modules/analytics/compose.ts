import type { PlatformDeps } from '../../context';
import { bundledLoadShapes } from '../bills/load-shapes';
import type { MonthlyBillTotal } from '../properties/energy-cost';
import type { TariffCatalog } from '../properties/tariff-catalog';
import type { PortfolioService } from '../portfolios/service';
import { bundledAverageRates } from './average-rates';
import { createDueDiligenceQueries } from './due-diligence.repository';
import { bundledResidentialUsage } from './residential-usage';
import { createAnalyticsService, type AnalyticsService } from './service';

export interface AnalyticsServices {
  /** Dashboards, cost trend, health, benchmarks, due diligence and the cost-rollup precompute. */
  analytics: AnalyticsService;
}

export function createAnalyticsServices(
  deps: PlatformDeps,
  shared: { portfolios: Pick<PortfolioService, 'requireOwned'>; tariffs: TariffCatalog; monthlyBill: MonthlyBillTotal },
): AnalyticsServices {
  const { tariffs } = shared;
  const dueDiligenceQueries = createDueDiligenceQueries(deps.database.db);
  const analytics = createAnalyticsService({
    db: deps.database.db,
    now: deps.now,
    logger: deps.logger,
    portfolios: shared.portfolios,
    // due diligence
    monthlyBill: shared.monthlyBill,
    loadShapes: () => bundledLoadShapes(),
    residentialUsage: bundledResidentialUsage,
    averageRates: bundledAverageRates,
    areaTariffs: (zipCode, sector) => tariffs.tariffsForZip(zipCode, [sector]),
    servingUtilities: dueDiligenceQueries.servingUtilities,
    comparableCountBySqft: dueDiligenceQueries.comparableCountBySqft,
    enqueue: (job, opts) => deps.queue.enqueue('cost-rollup', job, opts),
  });
  return { analytics };
}
