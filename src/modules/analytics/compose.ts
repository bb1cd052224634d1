import type { PlatformDeps } from '../../context';
import { bundledLoadShapes } from '../bills/load-shapes';
import type { MonthlyBillTotal } from '../properties/energy-cost';
import type { TariffCatalog } from '../properties/tariff-catalog';
import type { PortfolioService } from '../portfolios/service';
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
  const analytics = createAnalyticsService({
    db: deps.database.db,
    now: deps.now,
    logger: deps.logger,
    portfolios: shared.portfolios,
    monthlyBill: shared.monthlyBill,
    loadShapes: () => bundledLoadShapes(),
    residentialUsage: bundledResidentialUsage,
    areaTariffs: async (zipCode, sector) => tariffs.currentTariffsOf(await tariffs.servingUtilities(zipCode), [sector]),
    enqueue: (job, opts) => deps.queue.enqueue('cost-rollup', job, opts),
    listenInProcess: deps.database.listenInProcess,
  });
  return { analytics };
}
