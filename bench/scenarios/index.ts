import type { Scenario } from '../types';
import { accountScenarios } from './accounts';
import { tariffScenarios } from './tariffs';
import { calculateScenarios } from './calculate';
import { propertyScenarios } from './properties';
import { rateAnalysisScenarios } from './rate-analysis';
import { tenantBillingScenarios } from './tenant-billing';
import { webhookScenarios } from './webhooks';
import { analyticsImportScenario, analyticsScenarios } from './analytics';
import { rubsPostingScenarios } from './rubs-posting';
import { auditScenarios } from './audit';
import { intervalScenarios } from './intervals';

/** Every benchmark, in the order they run (HTTP rows first, then the others, per mode: bench/run.ts). */
export const scenarios: Scenario[] = [
  ...accountScenarios,
  ...tariffScenarios,
  ...calculateScenarios,
  ...propertyScenarios,
  ...rateAnalysisScenarios,
  ...tenantBillingScenarios,
  ...webhookScenarios,
  ...analyticsScenarios,
  ...auditScenarios,
  analyticsImportScenario,
  ...rubsPostingScenarios,
  ...intervalScenarios,
];
