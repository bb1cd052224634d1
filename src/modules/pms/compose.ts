import type { PlatformDeps } from '../../context';
import type { NotificationService } from '../notifications/service';
import type { PropertyService } from '../properties/service';
import { createWebhookService, type WebhookService } from '../webhooks/service';
import { CircuitBreaker } from './breaker';
import { createPmsEventHandler } from './events';
import { createPmsProviderClient, type PmsProviderClient } from './provider-client';
import { createPmsRepository } from './repository';
import { createPmsService, type PmsService } from './service';
import { createPmsSyncService, type PmsSyncService } from './sync';

/** The PMS integration: property links, unit imports from the provider, and the signed webhooks. */
export interface PmsServices {
  pms: PmsService;
  pmsSync: PmsSyncService;
  pmsProvider: PmsProviderClient;
  webhooks: WebhookService;
}

export function createPmsServices(
  deps: PlatformDeps,
  others: { properties: Pick<PropertyService, 'requireOwned'>; notifications: Pick<NotificationService, 'notify' | 'notifyMany'> },
): PmsServices {
  const db = deps.database.db;
  const { config, logger, now, queue } = deps;
  const pmsProvider = createPmsProviderClient({
    apiUrl: config.pms.apiUrl,
    apiKey: config.pms.apiKey,
    timeoutMs: config.pms.timeoutMs,
    logger,
    // One breaker per process for the one provider: after 5 failed fetches in a row, 30 s without calls.
    breaker: new CircuitBreaker({ threshold: 5, openMs: 30_000 }),
  });
  const pmsSync = createPmsSyncService({
    db, now, logger, provider: pmsProvider, notifications: others.notifications,
    enqueue: (propertyId, jobId) => queue.enqueue('pms-sync', { property_id: propertyId }, { jobId }),
  });
  const pms = createPmsService({ db, now, properties: others.properties, sync: pmsSync });
  const repo = createPmsRepository(db);
  const webhooks = createWebhookService({
    db, now, logger,
    handler: createPmsEventHandler({ now, notifications: others.notifications, sync: pmsSync }),
    enqueue: (job, jobId, delayMs) => queue.enqueue('webhook-events', job, { jobId, delayMs }),
    connectionsOf: (ownerId) => repo.connectionsOfOwner(ownerId),
    requeueOwedSyncs: (olderThan) => pmsSync.requeueOwed(olderThan),
  });
  return { pms, pmsSync, pmsProvider, webhooks };
}
