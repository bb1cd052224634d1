import { randomUUID } from 'node:crypto';
import type { PlatformDeps } from './context';
import { createAccountsService, type AccountsService } from './modules/accounts/service';
import { createLimits, type Limits } from './platform/http/limits';
import { createIdempotencyStore, type IdempotencyStore } from './platform/http/idempotency-store';
import { createPricingService, type PricingService } from './modules/pricing';
import { bundledLoadShapes } from './modules/pricing/load-shapes';
import { createTariffService, type TariffService } from './modules/tariffs/service';
import { createCustomTariffService, type CustomTariffService } from './modules/tariffs/custom/service';
import { createAuditService, type AuditService } from './modules/audit/service';
import { METERS_PER_AUDIT_JOB } from './modules/audit/job-payload';
import { createAuditRequests } from './modules/audit/audit-requests';
import { createUtilityService, type UtilityService } from './modules/utilities/service';
import { createTenantBillingService, type TenantBillingService } from './modules/tenant-billing/service';
import { createPortfolioService, type PortfolioService } from './modules/portfolios/service';
import { createNotificationService, type NotificationService } from './modules/notifications/service';
import { createBillService, type BillService } from './modules/bills/service';
import { createMeterService, type MeterService } from './modules/meters/service';
import { createIntervalService, type IntervalService } from './modules/meters/intervals/service';
import { createRateAnalysisService, propertyAnalysisJobId, type RateAnalysisService } from './modules/rate-analysis/service';
import { createPropertyService, type PropertyService } from './modules/properties/service';
import { createTariffCatalog } from './modules/properties/tariff-catalog';
import { engineMonthlyBill, type MonthlyBillTotal } from './modules/properties/energy-cost';
import { bundledAverageRates } from './modules/analytics/average-rates';
import { createDueDiligenceQueries } from './modules/analytics/due-diligence.repository';
import { bundledResidentialUsage } from './modules/analytics/residential-usage';
import { createRecomputeRequests } from './modules/analytics/recompute-requests';
import { createAnalyticsService, type AnalyticsService } from './modules/analytics/service';
import { createEmissionsService, type EmissionsService } from './modules/emissions/service';
import { createWhatIfService, type WhatIfService } from './modules/emissions/what-if.service';
import { createWebhookService, type WebhookService } from './modules/webhooks/service';
import { CircuitBreaker } from './modules/pms/breaker';
import { createPmsEventHandler } from './modules/pms/events';
import { createPmsProviderClient, type PmsProviderClient } from './modules/pms/provider-client';
import { createPmsRepository } from './modules/pms/repository';
import { createPmsService, type PmsService } from './modules/pms/service';
import { createPmsSyncService, type PmsSyncService } from './modules/pms/sync';
import { createPmsChargesClient } from './modules/pms/charges-client';
import { createRubsPostingService, type RubsPostingService } from './modules/tenant-billing/posting/service';
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
 * one needs to queue another's work, it is given the queueing function, not the other service.
 */
export function createServices(deps: PlatformDeps): Services {
  const { config, logger, now, queue } = deps;
  const db = deps.database.db;

  const accounts = createAccountsService({ db, config, jwtSecret: deps.jwtSecret, logger, now });
  const limits = createLimits({ config, logger, now });
  const idempotency = createIdempotencyStore(db, now);
  // The engine loads the bundled load shapes on first use: a process that never prices a bill skips them.
  let engine: MonthlyBillTotal | undefined;
  const monthlyBill: MonthlyBillTotal = (tariff, input) => (engine ??= engineMonthlyBill(bundledLoadShapes()))(tariff, input);

  // Writes that change what analytics show queue the owner's recompute. Job ids and keys avoid ':' (BullMQ reserves it).
  const recomputeRequests = createRecomputeRequests({ db, logger, enqueue: (job, opts) => queue.enqueue('cost-rollup', job, opts) });
  const dataChanged = recomputeRequests.requestRecompute;
  // A meter's bills are audited again after anything that changes them or what prices them: one
  // meter's job in order per meter; many meters (an owner's re-audit) in jobs of 200.
  // Events out: written by the features in their transactions, delivered by the event-deliveries job.
  const events = createEventService({
    db,
    now,
    logger,
    production: config.nodeEnv === 'production',
    send: createSender({ timeoutMs: EVENT_DELIVERY_TIMEOUT_MS, publicAddressesOnly: config.nodeEnv === 'production' }),
    // Notifications are built below; an endpoint is only disabled once every service exists.
    notifications: { notifyMany: (list, executor) => notifications.notifyMany(list, executor) },
    deliverSoon: async () => {
      try {
        await queue.enqueue('event-deliveries', {});
      } catch (err) {
        logger.warn({ err }, 'could not queue the webhook deliveries; the schedule sends them');
      }
    },
  });
  const auditRequests = createAuditRequests(db);
  const requestAudits = async (meterIds: readonly string[]) => {
    const unique = [...new Set(meterIds)];
    try {
      // Marked before queued, so the job (which reads after) clears the mark: GET .../audit says stale until it has run.
      await auditRequests.markRequested(unique);
      if (unique.length === 1) await queue.enqueue('bill-audit', { meter_id: unique[0]! }, { orderingKey: `bill-audit.${unique[0]}` });
      else {
        for (let i = 0; i < unique.length; i += METERS_PER_AUDIT_JOB) {
          await queue.enqueue('bill-audit', { meter_ids: unique.slice(i, i + METERS_PER_AUDIT_JOB) });
        }
      }
    } catch (err) {
      logger.warn({ err, meters: unique.length }, 'could not queue the bill audit');
    }
  };
  const enqueueRateAnalysis = (job: { property_id: string } | { user_id: string }, jobId: string) => {
    const key = 'property_id' in job ? `property.${job.property_id}` : `user.${job.user_id}`;
    return queue.enqueue('rate-analysis', job, { jobId, orderingKey: `rate-analysis.${key}` });
  };

  // A new version of an owner's tariff re-prices the owner's properties (estimates, analyses), as a tariff import does.
  const customTariffs = createCustomTariffService({
    db,
    now,
    ratesChanged: async (ownerId, stamp) => {
      try {
        await enqueueRateAnalysis({ user_id: ownerId }, `rate-analysis.custom-tariff.${stamp}.user.${ownerId}`);
        await audit.auditOwner(ownerId);
      } catch (err) {
        logger.warn({ err, ownerId }, 'could not queue the re-analysis and audits after a tariff version');
      }
    },
  });
  const tariffCatalog = createTariffCatalog(db, now, customTariffs);
  const pricing = createPricingService({ db, now, loadShapes: () => bundledLoadShapes(), custom: customTariffs });
  const audit = createAuditService({
    db,
    now,
    pricing,
    loadShapes: () => bundledLoadShapes(),
    requestAudits,
    dataChanged,
    events,
    otherTariffs: (ownerId, tariff, sectors) => tariffCatalog.sameUtilityTariffs(ownerId, tariff, sectors),
    // Notifications are built below; the audit notifies only once every service exists.
    notifications: { notifyMany: (list, executor) => notifications.notifyMany(list, executor) },
  });
  const portfolios = createPortfolioService({
    db,
    dataChanged,
    // Analytics is built below; a portfolio's costs are only read through it once every service exists.
    annualCost: (ownerId, portfolioId) => analytics.portfolioAnnualCost(ownerId, portfolioId),
  });
  const notifications = createNotificationService({ db, now });
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
    db,
    now,
    logger,
    tariffs: tariffCatalog,
    monthlyBill,
    properties,
    notifications,
    dataChanged,
    enqueue: enqueueRateAnalysis,
    pricing,
    events,
    loadShapes: () => bundledLoadShapes(),
    averageRates: bundledAverageRates,
  });
  const meters = createMeterService({
    db,
    properties,
    dataChanged,
    auditMeters: requestAudits,
    coverageChanged: (ownerId, propertyId) => recomputeRequests.propertyChanged(ownerId, propertyId),
  });
  const meterIntervals = createIntervalService({ db, properties, requireMeter: meters.requireOwned, events, auditMeters: requestAudits });
  const bills = createBillService({ db, now, properties, meters, dataChanged, auditMeters: requestAudits });
  const dueDiligenceQueries = createDueDiligenceQueries(db);
  const analytics = createAnalyticsService({
    db,
    now,
    logger,
    portfolios,
    requests: recomputeRequests,
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

  // After a refresh changed tariffs: every owner's properties re-analysed (then their analytics, through
  // the analysis's dataChanged; each owner told of the properties whose advice changed) and their bills
  // audited again. One path for POST /admin/tariffs/refresh, the cron and `npm run data:refresh`.
  const tariffRefresh = createTariffRefreshService({
    db,
    now,
    logger,
    urdb: config.urdb,
    enqueue: async (runId) => {
      await queue.enqueue('tariff-refresh', { run_id: runId }, { jobId: `tariff-refresh.${runId}.${randomUUID()}` });
    },
    tariffsChanged: async (runId) => {
      try {
        const refresh = { run_id: runId, changed_at: now().toISOString() };
        const owners = await rateAnalysis.requestAnalysisAfterTariffImport(`refresh-${runId}`, refresh);
        for (const ownerId of await properties.ownersWithProperties()) await audit.auditOwner(ownerId);
        logger.info({ runId, owners }, 'queued re-analysis and audits after the tariff refresh');
      } catch (err) {
        logger.warn({ err, runId }, 'could not queue the re-analysis and audits after the tariff refresh');
      }
    },
  });

  const pmsProvider = createPmsProviderClient({
    apiUrl: config.pms.apiUrl,
    apiKey: config.pms.apiKey,
    timeoutMs: config.pms.timeoutMs,
    logger,
    // One breaker per process for the one provider: after 5 failed fetches in a row, 30 s without calls.
    breaker: new CircuitBreaker({ threshold: 5, openMs: 30_000 }),
  });
  const pmsSync = createPmsSyncService({
    db,
    now,
    logger,
    provider: pmsProvider,
    notifications,
    enqueue: (propertyId, jobId) => queue.enqueue('pms-sync', { property_id: propertyId }, { jobId }),
  });
  const pms = createPmsService({ db, now, properties, sync: pmsSync, provider: pmsProvider });
  const pmsRepository = createPmsRepository(db);
  const tenantBilling = createTenantBillingService({ db, now, properties });
  const rubsPosting = createRubsPostingService({
    db,
    now,
    logger,
    billing: tenantBilling,
    links: pms,
    events,
    charges: createPmsChargesClient({ apiUrl: config.pms.apiUrl, apiKey: config.pms.apiKey, timeoutMs: config.pms.timeoutMs, logger }),
    enqueue: (job, opts) => queue.enqueue('rubs-posting', job, opts),
  });
  const webhooks = createWebhookService({
    db,
    now,
    logger,
    handler: createPmsEventHandler({ now, notifications, sync: pmsSync }),
    enqueue: (job, jobId, delayMs) => queue.enqueue('webhook-events', job, { jobId, delayMs }),
    connectionsOf: (ownerId) => pmsRepository.connectionsOfOwner(ownerId),
    requeueOwedSyncs: (olderThan) => pmsSync.requeueOwed(olderThan),
  });

  return {
    accounts,
    limits,
    idempotency,
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
    whatIf: createWhatIfService({ db, now, properties, pricing, loadShapes: () => bundledLoadShapes() }),
    tenantBilling,
    rubsPosting,
    pms,
    pmsSync,
    pmsProvider,
    webhooks,
    events,
    close: async () => {
      await accounts.close();
      await limits.close();
    },
  };
}
