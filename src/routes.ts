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
import { registerBillRoutes } from './modules/utility-bills/routes';
import { registerRateAnalysisRoutes } from './modules/rate-analysis/routes';
import { registerNotificationRoutes } from './modules/notifications/routes';
import { registerCalculatorRoutes } from './modules/bills/routes';
import { registerTariffRoutes } from './modules/tariffs/routes';
import { registerUtilityRoutes } from './modules/utilities/routes';

/** Authentication (bearer token or X-API-Key), then the caller's daily quota, per auth mode. */
export function createGuards(deps: PlatformDeps, services: Services): RouteGuards {
  const auth = createAuthentication({ jwtSecret: deps.jwtSecret, now: deps.now, resolver: services.accounts.credentials });
  return {
    none: [],
    optional: [auth.optional, services.limits.quota],
    required: [auth.required, services.limits.quota],
  };
}

/** Every /api/v1 endpoint, feature by feature. */
export function registerRoutes(api: ApiRouter, deps: PlatformDeps, services: Services): void {
  registerAccountRoutes(api, { accounts: services.accounts, limits: services.limits });
  registerAdminRoutes(api, { config: deps.config, accounts: services.accounts });
  registerPortfolioRoutes(api, services.portfolios);
  registerPropertyRoutes(api, services.properties);
  registerBillRoutes(api, services.utilityBills);
  registerRateAnalysisRoutes(api, services.rateAnalysis);
  registerNotificationRoutes(api, services.notifications);
  registerCalculatorRoutes(api, services.calculator);
  registerTariffRoutes(api, services.tariffs);
  registerUtilityRoutes(api, services.utilities);
}

/** Routers mounted at the site root (outside /api/v1): the queue board at /admin/queues. */
export function siteRouters(deps: PlatformDeps): Router[] {
  return [queueBoardRouter(deps)];
}
