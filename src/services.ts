import type { PlatformDeps } from './context';
import { createPropertyServices, type PropertyServices } from './modules/properties/compose';
import { createAccountsService, type AccountsService } from './modules/accounts/service';
import { createLimits, type Limits } from './platform/http/limits';
import { createCalculatorService, type CalculatorService } from './modules/bills/service';
import { bundledLoadShapes } from './modules/bills/load-shapes';
import { createTariffService, type TariffService } from './modules/tariffs/service';
import { createUtilityService, type UtilityService } from './modules/utilities/service';
import { createTenantBillingService, type TenantBillingService } from './modules/tenant-billing/service';

/**
 * Every feature service, built once per process from the platform deps.
 * Routes (src/routes.ts) and job processors (jobs/) call these same objects.
 */
export interface Services extends PropertyServices {
  accounts: AccountsService;
  /** Rate limiters and daily quotas (own Redis connection when REDIS_URL is set). */
  limits: Limits;
  /** The bill calculator (POST /calculate, /calculate/compare). */
  calculator: CalculatorService;
  /** Tariff search, detail and stats (GET /tariffs/*). */
  tariffs: TariffService;
  /** Utility search, detail and ZIP look-up (GET /utilities/*). */
  utilities: UtilityService;
  /** Tenant billing (RUBS): configurations, calculations, history, statements (/billing/*). */
  tenantBilling: TenantBillingService;
  close(): Promise<void>;
}

export function createServices(deps: PlatformDeps): Services {
  const accounts = createAccountsService({
    db: deps.database.db,
    config: deps.config,
    jwtSecret: deps.jwtSecret,
    logger: deps.logger,
    now: deps.now,
  });
  const limits = createLimits({ config: deps.config, logger: deps.logger, now: deps.now });
  const propertyServices = createPropertyServices(deps);
  return {
    ...propertyServices,
    accounts,
    limits,
    tariffs: createTariffService({ db: deps.database.db, now: deps.now }),
    utilities: createUtilityService({ db: deps.database.db }),
    tenantBilling: createTenantBillingService({ db: deps.database.db, now: deps.now, properties: propertyServices.properties }),
    calculator: createCalculatorService({ db: deps.database.db, now: deps.now, loadShapes: () => bundledLoadShapes() }),
    close: async () => {
      await accounts.close();
      await limits.close();
    },
  };
}
