import type { Router } from 'express';
import type { PlatformDeps } from './context';
import type { Services } from './services';
import type { ApiRouter, RouteGuards } from './platform/http/router';
import { createAuthentication } from './platform/http/auth';
import { queueBoardRouter } from './platform/queue/board';
import { registerAccountRoutes } from './modules/accounts/routes';
import { registerAdminRoutes } from './modules/admin/routes';
import { registerPortfolioRoutes } from './modules/portfolios/routes';
import { registerPropertyRoutes } from './modules/properties/routes';
import { registerMeterRoutes } from './modules/meters/routes';
import { registerBillRoutes } from './modules/bills/routes';
import { registerRateAnalysisRoutes } from './modules/rate-analysis/routes';
import { registerNotificationRoutes } from './modules/notifications/routes';
import { registerPricingRoutes } from './modules/pricing/routes';
import { registerAuditRoutes } from './modules/audit/routes';
import { registerTariffRoutes } from './modules/tariffs/routes';
import { registerTariffRefreshRoutes } from './modules/tariffs/refresh/routes';
import { registerUtilityRoutes } from './modules/utilities/routes';
import { registerAnalyticsRoutes } from './modules/analytics/routes';
import { registerEmissionsRoutes } from './modules/emissions/routes';
import { registerTenantBillingRoutes } from './modules/tenant-billing/routes';
import { registerRubsPostingRoutes } from './modules/tenant-billing/posting/routes';
import { registerPmsRoutes } from './modules/pms/routes';
import { registerCalculateFromPmsRoute } from './modules/tenant-billing/calculate-from-pms';
import { documentWebhookReceiver, registerWebhookAdminRoutes, registerWebhookSiteRoutes } from './modules/webhooks/routes';
import { WEBHOOK_RECEIVER_PATH, webhookReceiverRouter } from './modules/webhooks/receiver';
import { parseSecrets } from './modules/webhooks/signature';
import { requireAdminToken } from './modules/admin/admin-token';
import { registerEventRoutes } from './modules/events/routes';

/** Authentication (bearer token or X-API-Key), then the caller's daily quota, per auth mode. */
export function createGuards(deps: PlatformDeps, services: Services): RouteGuards {
  const auth = createAuthentication({ jwtSecret: deps.jwtSecret, now: deps.now, resolver: services.accounts.credentials });
  return {
    none: [],
    optional: [auth.optional, services.limits.quota],
    required: [auth.required, services.limits.quota],
    admin: [requireAdminToken(deps.config)],
  };
}

/** Every /api/v1 endpoint, feature by feature. */
export function registerRoutes(api: ApiRouter, deps: PlatformDeps, services: Services): void {
  registerAccountRoutes(api, { accounts: services.accounts, limits: services.limits });
  registerAdminRoutes(api, services.accounts);
  registerTariffRefreshRoutes(api, services.tariffRefresh);
  registerPortfolioRoutes(api, services.portfolios);
  // Before the property routes: its literal GET /pm/properties/health precedes /pm/properties/:id.
  registerAnalyticsRoutes(api, services.analytics);
  registerPropertyRoutes(api, services.properties);
  registerMeterRoutes(api, services.meters, services.meterIntervals);
  registerBillRoutes(api, services.bills);
  registerRateAnalysisRoutes(api, services.rateAnalysis);
  registerEmissionsRoutes(api, services.emissions, services.whatIf);
  registerNotificationRoutes(api, services.notifications);
  registerPricingRoutes(api, services.pricing);
  registerAuditRoutes(api, services.audit, services.limits);
  registerTariffRoutes(api, services.tariffs, services.customTariffs);
  registerUtilityRoutes(api, services.utilities);
  registerTenantBillingRoutes(api, services.tenantBilling, (id) => services.rubsPosting.postingState(id));
  registerRubsPostingRoutes(api, services.rubsPosting);
  registerPmsRoutes(api, services.pms);
  registerCalculateFromPmsRoute(api, {
    properties: services.properties,
    pms: services.pms,
    provider: services.pmsProvider,
    billing: services.tenantBilling,
  });
  registerWebhookAdminRoutes(api, services.webhooks);
  registerEventRoutes(api, services.events);
}

/** Site-root endpoints that use the API's guards and documentation (outside /api/v1): the webhook log. */
export function registerSiteRoutes(site: ApiRouter, services: Services): void {
  registerWebhookSiteRoutes(site, services.webhooks);
  documentWebhookReceiver(site.registry);
}

/** Routers that read the raw request body themselves, mounted on their path before the body parsers: the webhook receiver. */
export function rawBodyRoutes(deps: PlatformDeps, services: Services): Array<{ path: string; router: Router }> {
  return [
    {
      path: WEBHOOK_RECEIVER_PATH,
      router: webhookReceiverRouter({
        secrets: parseSecrets(deps.config.pms.webhookSecret),
        webhooks: services.webhooks,
        limiter: services.limits.refusals,
      }),
    },
  ];
}

/** Routers mounted at the site root (outside /api/v1): the queue board at /admin/queues. */
export function siteRouters(deps: PlatformDeps): Router[] {
  return [queueBoardRouter(deps)];
}
