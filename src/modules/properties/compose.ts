import type { PlatformDeps } from '../../context';
import { bundledLoadShapes } from '../bills/load-shapes';
import { createPortfolioService, type PortfolioService } from '../portfolios/service';
import { createNotificationService, type NotificationService } from '../notifications/service';
import { createBillService, type BillService } from '../utility-bills/service';
import { createRateAnalysisService, type RateAnalysisService } from '../rate-analysis/service';
import { createPropertyService, type PropertyService } from './service';
import { createTariffCatalog } from './tariff-catalog';
import { engineMonthlyBill, type MonthlyBillTotal } from './energy-cost';
import { createPmsServices, type PmsServices } from '../pms/compose';
import { createAnalyticsServices, type AnalyticsServices } from '../analytics/compose';

/** The property-management services (portfolios, properties, bills, notifications, rate analysis, PMS link and webhooks). */
export interface PropertyServices extends PmsServices, AnalyticsServices {
  portfolios: PortfolioService;
  properties: PropertyService;
  /** Actual utility bills of properties (not the bill calculator). */
  utilityBills: BillService;
  notifications: NotificationService;
  rateAnalysis: RateAnalysisService;
}

export function createPropertyServices(deps: PlatformDeps): PropertyServices {
  const db = deps.database.db;
  const tariffs = createTariffCatalog(db, deps.now);
  let engine: MonthlyBillTotal | undefined;
  const monthlyBill: MonthlyBillTotal = (tariff, input) => (engine ??= engineMonthlyBill(bundledLoadShapes()))(tariff, input);
  // Writes that change what analytics show queue the owner's recompute (analytics is built below).
  const dataChanged = (ownerId: string) => analyticsServices.analytics.requestRecompute(ownerId);
  const portfolios = createPortfolioService({ db, dataChanged });
  const notifications = createNotificationService({ db, now: deps.now });
  // The property service queues analyses through the rate-analysis service, built right after it
  // (the closure runs only after both exist).
  const properties = createPropertyService({
    db, now: deps.now, logger: deps.logger, tariffs, monthlyBill, portfolios, dataChanged,
    requestAnalysis: (propertyId, version) => rateAnalysis.requestPropertyAnalysis(propertyId, version),
  });
  const rateAnalysis = createRateAnalysisService({
    db, now: deps.now, logger: deps.logger, tariffs, monthlyBill, properties, notifications, dataChanged,
    enqueue: (job, jobId) => {
      // Job ids and keys avoid ':' (BullMQ reserves it).
      const key = 'property_id' in job ? `property.${job.property_id}` : `user.${job.user_id}`;
      return deps.queue.enqueue('rate-analysis', job, { jobId, orderingKey: `rate-analysis.${key}` });
    },
  });
  const utilityBills = createBillService({ db, properties, dataChanged });
  const pmsServices = createPmsServices(deps, { properties, notifications });
  const analyticsServices = createAnalyticsServices(deps, { portfolios, tariffs, monthlyBill });
  return { portfolios, properties, utilityBills, notifications, rateAnalysis, ...pmsServices, ...analyticsServices };
}
