import { randomUUID } from 'node:crypto';
import type { PlatformDeps } from './context';
import { createWorkRequests, type WorkRequests } from './composition/work-requests';
import { createTenantBillingServices } from './composition/tenant-billing';
import { createAccountsService, type AccountsService } from './modules/accounts/service';
import { createLimits, type Limits } from './platform/http/limits';
import { createIdempotencyStore, type IdempotencyStore } from './platform/http/idempotency-store';
import { createPricingService, type PricingService } from './modules/pricing';
import { bundledLoadShapes } from './modules/pricing/load-shapes';
import { createTariffService, type TariffService } from './modules/tariffs/service';
import { createCustomTariffService, type CustomTariffService } from './modules/tariffs/custom/service';
import { createAuditService, type AuditService } from './modules/audit/service';
import { createUtilityService, type UtilityService } from './modules/utilities/service';
import type { TenantBillingService } from './modules/tenant-billing/service';
import { createPortfolioService, type PortfolioService } from './modules/portfolios/service';
import { createNotificationService, type NotificationService } from './modules/notifications/service';
import { createBillService, type BillService } from './modules/bills/service';
import { createMeterService, type MeterService } from './modules/meters/service';
import { createIntervalService, type IntervalService } from './modules/meters/intervals/service';
import { createRateAnalysisService, propertyAnalysisJobId, type RateAnalysisService } from './modules/rate-analysis/service';
import { createPropertyService, type PropertyService } from './modules/properties/service';
import { createTariffCatalog, type TariffCatalog } from './modules/properties/tariff-catalog';
import { engineMonthlyBill, type MonthlyBillTotal } from './modules/properties/energy-cost';
import { bundledAverageRates } from './modules/analytics/average-rates';
import { createDueDiligenceQueries } from './modules/analytics/due-diligence.repository';
import { bundledResidentialUsage } from './modules/analytics/residential-usage';
import { createAnalyticsService, type AnalyticsService } from './modules/analytics/service';
import { createEmissionsService, type EmissionsService } from './modules/emissions/service';
import { createWhatIfService, type WhatIfService } from './modules/emissions/what-if.service';
import type { WebhookService } from './modules/webhooks/service';
import type { PmsProviderClient } from './modules/pms/provider-client';
import type { PmsService } from './modules/pms/service';
import type { PmsSyncService } from './modules/pms/sync';
import type { RubsPostingService } from './modules/tenant-billing/posting/service';
import { createEventService, type EventService } from './modules/events/service';
import { createSender } from './modules/events/sender';
import { createTariffRefreshService, type TariffRefreshService } from './modules/tariffs/refresh/service';

/** A webhook delivery attempt waits this long for the receiver's whole answer. */
const EVENT_DELIVERY_TIMEOUT_MS = 15_000;

/**
 * Every feature service, built once per process from the platform deps. Routes (src/routes.ts),
 * job processors (jobs/) and the process roles (workers/) use these same objects.
 */
export interface Services {
  accounts: AccountsService;
  /** Rate limiters and daily quotas (own Redis connection when REDIS_URL is set). */
  limits: Limits;
  /** The first answers of POSTs sent with an Idempotency-Key, kept 24 hours. */
  idempotency: IdempotencyStore;
  /** Bill pricing: POST /calculate, /calculate/compare, and the tariff lookups pricePeriod prices bills on. */
  pricing: PricingService;
  /** Tariff search, detail and stats (GET /tariffs/*). */
  tariffs: TariffService;
  /** Bill audit: every bill re-priced on its tariff, and the rule audits (/pm/bills/{id}/audit, /pm/audit/*). */
  audit: AuditService;
  /** The catalog refresh from the URDB API (POST /admin/tariffs/refresh, npm run data:refresh, URDB_REFRESH_CRON). */
  tariffRefresh: TariffRefreshService;
  /** An account's own tariffs (POST/GET /tariffs/custom, versions; served through the tariff routes). */
  customTariffs: CustomTariffService;
  /** Utility search, detail and ZIP look-up (GET /utilities/*). */
  utilities: UtilityService;
  portfolios: PortfolioService;
  properties: PropertyService;
  /** A property's meters (electric, gas, water, ...): what its bills belong to. */
  meters: MeterService;
  /** Electric meters' interval readings (Green Button) and load profiles. */
  meterIntervals: IntervalService;
  /** Actual utility bills of properties (not bills priced by /calculate). */
  bills: BillService;
  notifications: NotificationService;
  rateAnalysis: RateAnalysisService;
  /** Dashboards, cost trend, health, benchmarks, due diligence and the cost-rollup precompute. */
  analytics: AnalyticsService;
  /** Location-based emissions of a property's bills, and building-performance standards (/pm/properties/{id}/emissions). */
  emissions: EmissionsService;
  /** A property's energy, emissions, building-performance exposure and cost after named changes (POST /pm/properties/{id}/what-if). */
  whatIf: WhatIfService;
  /** Tenant billing (RUBS): configurations, calculations, history, statements (/billing/*). */
  tenantBilling: TenantBillingService;
  /** Posting calculations' charges to the PMS ledger, and reversing them (/billing/calculations/{id}/post, /reverse). */
  rubsPosting: RubsPostingService;
  /** The PMS integration: property links, unit imports from the provider, and the signed webhooks. */
  pms: PmsService;
  pmsSync: PmsSyncService;
  pmsProvider: PmsProviderClient;
  webhooks: WebhookService;
  /** Events out: webhook endpoints, the outbox, signed deliveries (/webhook-endpoints). */
  events: EventService;
  close(): Promise<void>;
}

/**
 * The composition root. Services are built in dependency order, each from plain arguments; where
 * one needs to queue another's work, it is given the queueing function (composition/work-requests.ts),
 * not the other service.
 */
export function createServices(deps: PlatformDeps): Services {
  const { config, logger, now } = deps;
  const db = deps.database.db;
  const work = createWorkRequests(deps);
  const { dataChanged, requestAudits, enqueueRateAnalysis } = work;
  const loadShapes = () => bundledLoadShapes();

  const accounts = createAccountsService({ db, config, jwtSecret: deps.jwtSecret, logger, now });
  const limits = createLimits({ config, logger, now });
  // The engine loads the bundled load shapes on first use: a process that never prices a bill skips them.
  let engine: MonthlyBillTotal | undefined;
  const monthlyBill: MonthlyBillTotal = (tariff, input) => (engine ??= engineMonthlyBill(bundledLoadShapes()))(tariff, input);
  const notifications = createNotificationService({ db, now });
  const events = eventService(deps, work, notifications);

  // Audit is built below; an owner's tariff version re-audits only once every service exists.
  const customTariffs = customTariffService(deps, work, (ownerId) => audit.auditOwner(ownerId));
  const tariffCatalog = createTariffCatalog(db, now, customTariffs);
  const pricing = createPricingService({ db, now, loadShapes, custom: customTariffs });
  const audit = createAuditService({
    db,
    now,
    pricing,
    loadShapes,
    requestAudits,
    dataChanged,
    events,
    notifications,
    otherTariffs: (ownerId, tariff, sectors) => tariffCatalog.sameUtilityTariffs(ownerId, tariff, sectors),
  });
  const portfolios = createPortfolioService({
    db,
    dataChanged,
    // Analytics is built below; a portfolio's costs are only read through it once every service exists.
    annualCost: (ownerId, portfolioId) => analytics.portfolioAnnualCost(ownerId, portfolioId),
  });
  const properties = createPropertyService({
    db,
    now,
    logger,
    tariffs: tariffCatalog,
    monthlyBill,
    portfolios,
    dataChanged,
    pricingChanged: (propertyId) => audit.auditProperty(propertyId),
    // Analytics is built below; a property is only read through it once every service exists.
    annualCost: (ownerId, propertyId) => analytics.propertyAnnualCost(ownerId, propertyId),
    requestAnalysis: (propertyId, version) => enqueueRateAnalysis({ property_id: propertyId }, propertyAnalysisJobId(propertyId, version)),
  });
  const rateAnalysis = createRateAnalysisService({
    ...{ db, now, logger, monthlyBill, properties, notifications, dataChanged, pricing, events, loadShapes },
    tariffs: tariffCatalog,
    enqueue: enqueueRateAnalysis,
    averageRates: bundledAverageRates,
  });
  const { meters, meterIntervals, bills } = meterServices(deps, work, { properties, events });
  const analytics = analyticsService(deps, work, { portfolios, audit, notifications, monthlyBill, tariffCatalog });
  const tariffRefresh = tariffRefreshService(deps, { rateAnalysis, properties, audit });

  return {
    accounts,
    limits,
    idempotency: createIdempotencyStore(db, now),
    pricing,
    audit,
    tariffs: createTariffService({ db, now, custom: customTariffs }),
    customTariffs,
    tariffRefresh,
    utilities: createUtilityService({ db }),
    portfolios,
    properties,
    meters,
    meterIntervals,
    bills,
    notifications,
    rateAnalysis,
    analytics,
    emissions: createEmissionsService({ db, now, properties, portfolios }),
    whatIf: createWhatIfService({ db, now, properties, pricing, loadShapes }),
    ...createTenantBillingServices(deps, { properties, notifications, events }),
    events,
    close: async () => {
      await accounts.close();
      await limits.close();
    },
  };
}

/** Events out: written by the features in their transactions, delivered by the event-deliveries job. */
function eventService(deps: PlatformDeps, work: WorkRequests, notifications: NotificationService): EventService {
  const production = deps.config.nodeEnv === 'production';
  return createEventService({
    db: deps.database.db,
    now: deps.now,
    logger: deps.logger,
    production,
    send: createSender({ timeoutMs: EVENT_DELIVERY_TIMEOUT_MS, publicAddressesOnly: production }),
    notifications,
    deliverSoon: work.deliverEvents,
  });
}

/** An owner's own tariffs: a new version re-prices the owner's properties (estimates, analyses, audits), as a tariff import does. */
function customTariffService(deps: PlatformDeps, work: WorkRequests, auditOwner: (ownerId: string) => Promise<void>): CustomTariffService {
  return createCustomTariffService({
    db: deps.database.db,
    now: deps.now,
    ratesChanged: async (ownerId, stamp) => {
      try {
        await work.enqueueRateAnalysis({ user_id: ownerId }, `rate-analysis.custom-tariff.${stamp}.user.${ownerId}`);
        await auditOwner(ownerId);
      } catch (err) {
        deps.logger.warn({ err, ownerId }, 'could not queue the re-analysis and audits after a tariff version');
      }
    },
  });
}

/** A property's meters, their interval readings and their bills: each write queues the meters' audit and the analytics. */
function meterServices(deps: PlatformDeps, work: WorkRequests, uses: { properties: PropertyService; events: EventService }) {
  const db = deps.database.db;
  const { properties, events } = uses;
  const { dataChanged, requestAudits } = work;
  const meters = createMeterService({
    db,
    properties,
    dataChanged,
    auditMeters: requestAudits,
    coverageChanged: (ownerId, propertyId) => work.recomputeRequests.propertyChanged(ownerId, propertyId),
  });
  const meterIntervals = createIntervalService({ db, properties, requireMeter: meters.requireOwned, events, auditMeters: requestAudits });
  const bills = createBillService({ db, now: deps.now, properties, meters, dataChanged, auditMeters: requestAudits });
  return { meters, meterIntervals, bills };
}

/** Dashboards, trends, health, benchmarks, due diligence and their recompute. */
function analyticsService(
  deps: PlatformDeps,
  work: WorkRequests,
  uses: {
    portfolios: PortfolioService;
    audit: AuditService;
    notifications: NotificationService;
    monthlyBill: MonthlyBillTotal;
    tariffCatalog: TariffCatalog;
  },
): AnalyticsService {
  const { portfolios, audit, notifications, monthlyBill, tariffCatalog } = uses;
  const dueDiligenceQueries = createDueDiligenceQueries(deps.database.db);
  return createAnalyticsService({
    db: deps.database.db,
    now: deps.now,
    logger: deps.logger,
    portfolios,
    requests: work.recomputeRequests,
    auditRecovery: (ownerId) => audit.disputes.recoveryStats(ownerId),
    unreadNotifications: (userId) => notifications.countUnread(userId),
    notifyMany: (list, executor) => notifications.notifyMany(list, executor),
    monthlyBill,
    loadShapes: () => bundledLoadShapes(),
    residentialUsage: bundledResidentialUsage,
    averageRates: bundledAverageRates,
    // Due diligence prices the ZIP code's primary utility only: its catalog tariffs (current and expired) and the caller's own.
    utilityTariffs: async (utilityId, sector, state, ownerId) => [
      ...(await dueDiligenceQueries.utilityTariffs(utilityId, sector, state)),
      ...(ownerId === null ? [] : await tariffCatalog.customAlternatives(ownerId, [utilityId], [sector])),
    ],
    servingUtilities: dueDiligenceQueries.servingUtilities,
    rememberZip: dueDiligenceQueries.rememberZip,
    comparableCountBySqft: dueDiligenceQueries.comparableCountBySqft,
  });
}

/**
 * The catalog refresh. After a refresh changed tariffs: every owner's properties re-analysed (then
 * their analytics, through the analysis's dataChanged; each owner told of the properties whose advice
 * changed) and their bills audited again. One path for POST /admin/tariffs/refresh, the cron and
 * `npm run data:refresh`.
 */
function tariffRefreshService(
  deps: PlatformDeps,
  uses: { rateAnalysis: RateAnalysisService; properties: PropertyService; audit: AuditService },
): TariffRefreshService {
  const { logger, now, queue } = deps;
  return createTariffRefreshService({
    db: deps.database.db,
    now,
    logger,
    urdb: deps.config.urdb,
    enqueue: async (runId) => {
      await queue.enqueue('tariff-refresh', { run_id: runId }, { jobId: `tariff-refresh.${runId}.${randomUUID()}` });
    },
    tariffsChanged: async (runId) => {
      try {
        const refresh = { run_id: runId, changed_at: now().toISOString() };
        const owners = await uses.rateAnalysis.requestAnalysisAfterTariffImport(`refresh-${runId}`, refresh);
        for (const ownerId of await uses.properties.ownersWithProperties()) await uses.audit.auditOwner(ownerId);
        logger.info({ runId, owners }, 'queued re-analysis and audits after the tariff refresh');
      } catch (err) {
        logger.warn({ err, runId }, 'could not queue the re-analysis and audits after the tariff refresh');
      }
    },
  });
}
