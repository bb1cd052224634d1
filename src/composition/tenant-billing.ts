/**
 * Tenant billing and the PMS integration: RUBS calculations, posting their charges to the PMS
 * ledger, property links and unit syncs from the provider, and the signed PMS webhooks.
 */
import type { PlatformDeps } from '../context';
import type { EventService } from '../modules/events/service';
import type { NotificationService } from '../modules/notifications/service';
import { createPmsChargesClient } from '../modules/pms/charges-client';
import { createPmsEventHandler } from '../modules/pms/events';
import { createPmsProviderClient } from '../modules/pms/provider-client';
import { createPmsRepository } from '../modules/pms/repository';
import { createPmsService } from '../modules/pms/service';
import { createPmsSyncService } from '../modules/pms/sync';
import type { PropertyService } from '../modules/properties/service';
import { createRubsPostingService } from '../modules/tenant-billing/posting/service';
import { createTenantBillingService } from '../modules/tenant-billing/service';
import { createWebhookService } from '../modules/webhooks/service';

export function createTenantBillingServices(
  deps: PlatformDeps,
  uses: { properties: PropertyService; notifications: NotificationService; events: EventService },
) {
  const { config, logger, now, queue } = deps;
  const db = deps.database.db;
  const { properties, notifications, events } = uses;
  const provider = { apiUrl: config.pms.apiUrl, apiKey: config.pms.apiKey, timeoutMs: config.pms.timeoutMs, logger };

  // One client per process for the one provider, so one breaker (the client's own: 5 failed fetches in a row, then 30 s without calls).
  const pmsProvider = createPmsProviderClient(provider);
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
    charges: createPmsChargesClient(provider),
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
  return { tenantBilling, rubsPosting, pms, pmsSync, pmsProvider, webhooks };
}
