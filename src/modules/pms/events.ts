import type { z } from 'zod';
import type { Executor } from '../../platform/db/client';
import type { NotificationService } from '../notifications/service';
import type { NewNotification } from '../notifications/public';
import type { StreamEnvelope } from '../webhooks/envelope';
import { latestBelievable } from '../webhooks/clock-skew';
import type { EventBatch, EventHandlerFactory, EventOutcome } from '../webhooks/handler';
import { createPmsRepository, type LinkedProperty } from './repository';
import type { PmsSyncService, SyncRequest } from './sync';
import { isoToMicros } from './timestamps';
import { firstIssue, movedRubsFactors, pmsUnitData, toUnitRecord, type PmsUnitData, type RubsFactors, type UnitRecord } from './unit-data';

export interface PmsEventDeps {
  now: () => Date;
  notifications: Pick<NotificationService, 'notifyMany'>;
  sync: Pick<PmsSyncService, 'request' | 'enqueue'>;
}

const pmsIdOf = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' && v.length <= 200 && !v.includes('\u0000')
    ? v.trim()
    : typeof v === 'number' && Number.isInteger(v)
      ? String(v)
      : null;

const ignored = (detail: string): EventOutcome => ({ status: 'ignored', detail });
const failed = (detail: string): EventOutcome => ({ status: 'failed', detail });
const NOT_REGISTERED = ignored('connection not registered');
const NOT_LINKED = ignored('property not linked');

/** The PMS property an event is about ('' when it names none, or for sync.complete: the owner is all it needs). */
function pmsPropertyOf(env: StreamEnvelope, unit: z.ZodSafeParseResult<PmsUnitData> | undefined): string {
  if (env.event === 'sync.complete') return '';
  if (env.resourceType === 'unit') return unit?.success ? unit.data.property_id : '';
  return pmsIdOf(env.resourceType === 'property' ? env.data.id : env.data.property_id) ?? '';
}

/** A unit as the events of a batch leave it, written once at the end of the batch. */
interface UnitState extends RubsFactors {
  writtenAt: bigint | null;
  write?: UnitRecord & { property_id: string; at: string };
}

const pairKey = (conn: string, prop: string) => `${conn}\u0000${prop}`;
const unitKey = (propertyId: string, pmsUnitId: string) => `${propertyId}\u0000${pmsUnitId}`;

/** What a batch has read: each unit event's data parsed, each (connection, PMS property) resolved, the units locked. */
interface BatchReads {
  parsed: Map<string, z.ZodSafeParseResult<PmsUnitData>>;
  resolved: Map<string, { ownerId: string | null; link: LinkedProperty | null }>;
  units: Map<string, UnitState>;
}

/** Reads a batch's connections and links, then locks the units its unit events name: two statements. */
async function prepareBatch(
  repo: ReturnType<typeof createPmsRepository>,
  events: ReadonlyArray<{ envelope: StreamEnvelope; eventId: string }>,
  b: BatchReads,
): Promise<void> {
  const { parsed, resolved, units } = b;
  const pairs = new Map<string, { conn: string; prop: string }>();
  for (const { envelope, eventId } of events) {
    if (envelope.event !== 'sync.complete' && envelope.resourceType === 'unit') parsed.set(eventId, pmsUnitData.safeParse(envelope.data));
    const prop = pmsPropertyOf(envelope, parsed.get(eventId));
    pairs.set(pairKey(envelope.connectionId, prop), { conn: envelope.connectionId, prop });
  }
  for (const r of await repo.connectionsAndLinks([...pairs.values()])) resolved.set(pairKey(r.conn, r.prop), r);
  const wanted = new Map<string, { property_id: string; pms_unit_id: string }>();
  for (const { envelope, eventId } of events) {
    const result = parsed.get(eventId);
    if (!result?.success) continue;
    const link = resolved.get(pairKey(envelope.connectionId, pmsPropertyOf(envelope, result)))?.link;
    if (link) wanted.set(unitKey(link.propertyId, result.data.id), { property_id: link.propertyId, pms_unit_id: result.data.id });
  }
  for (const u of await repo.lockUnits([...wanted.values()])) units.set(unitKey(u.propertyId, u.pmsUnitId), u);
}

/** The owner's notice that a unit's RUBS factors moved. */
function factorsMovedNotice(link: LinkedProperty, unitNumber: string, moved: string[], eventId: string): NewNotification {
  return {
    userId: link.ownerId,
    type: 'rubs_factor_changed',
    propertyId: link.propertyId,
    message: `Unit ${unitNumber} of ${link.propertyName}: ${moved.join(', ')}. RUBS shares change from the next calculation.`,
    dedupeKey: `webhook.${eventId}`,
  };
}

/** The owner's notice that a new PMS property waits to be linked. */
function reviewNotice(env: StreamEnvelope, ownerId: string, pmsPropertyId: string): NewNotification {
  const name = typeof env.data.name === 'string' ? ` "${env.data.name.replaceAll('\u0000', '').slice(0, 200)}"` : '';
  return {
    userId: ownerId,
    type: 'pms_property_review',
    propertyId: null,
    message:
      `New PMS property ${pmsPropertyId}${name} on connection ${env.connectionId} is not linked to a property yet: ` +
      'link it with PUT /api/v1/pm/properties/{id}/pms to import its units.',
    dedupeKey: `pms-review.${env.connectionId}.${pmsPropertyId}`,
  };
}

/**
 * What the PMS events mean here:
 * - unit data.new / data.update: the unit record is written, unless a later event already wrote it
 *   (`stale`; a stored time past now plus the allowed clock skew is no real one and counts as none);
 *   a move of a RUBS factor (vacancy, occupants, sqft) notifies the property's owner;
 * - property data.new: a linked property gets its units imported, an unlinked one is flagged for
 *   review to the connection's owner;
 * - lease and resident events: their records come with the units, so the property's units are
 *   imported again (their own shapes are not published);
 * - sync.complete: every linked property of the connection is imported again.
 * Events of unregistered connections and unlinked properties are logged `ignored`.
 * A batch reads its connections, links and units in two statements (`prepare`), applies its
 * events in memory in stream order, and writes the units and notifications in two (`finish`).
 */
export function createPmsEventHandler(deps: PmsEventDeps): EventHandlerFactory {
  return (tx: Executor): EventBatch => {
    const repo = createPmsRepository(tx);
    const believable = BigInt(latestBelievable(deps.now()).getTime()) * 1000n;
    const parsed = new Map<string, z.ZodSafeParseResult<PmsUnitData>>();
    const resolved = new Map<string, { ownerId: string | null; link: LinkedProperty | null }>();
    const units = new Map<string, UnitState>();
    const notifications: NewNotification[] = [];
    const ok = (detail: string, syncs: SyncRequest[] = []): EventOutcome => ({
      status: 'success',
      detail,
      after: syncs.length > 0 ? () => deps.sync.enqueue(syncs) : undefined,
    });
    const resolve = (env: StreamEnvelope, eventId: string) =>
      resolved.get(pairKey(env.connectionId, pmsPropertyOf(env, parsed.get(eventId)))) ?? { ownerId: null, link: null };

    function unitEvent(env: StreamEnvelope, eventId: string): EventOutcome {
      const result = parsed.get(eventId)!;
      const { ownerId, link } = resolve(env, eventId);
      if (!ownerId) return NOT_REGISTERED;
      if (!result.success) return failed(firstIssue(result.error, 'data'));
      if (!link) return NOT_LINKED;
      const unit = result.data;
      const key = unitKey(link.propertyId, unit.id);
      const stored = units.get(key);
      const at = isoToMicros(env.timestamp);
      // Equal times apply in the order received; only a strictly older event is stale. A stored time
      // beyond the believable (a future-dated event taken before they were refused) guards nothing.
      if (stored?.writtenAt != null && stored.writtenAt <= believable && at < stored.writtenAt) return ignored('stale');
      const record = toUnitRecord(unit);
      units.set(key, { ...record, writtenAt: at, write: { ...record, property_id: link.propertyId, at: env.timestamp } });
      if (!stored) return ok(`unit ${unit.unit_number} created`);
      const moved = movedRubsFactors(stored, record);
      if (moved.length > 0) notifications.push(factorsMovedNotice(link, unit.unit_number, moved, eventId));
      return ok(`unit ${unit.unit_number} updated${moved.length > 0 ? ` (RUBS factors moved: ${moved.join(', ')})` : ''}`);
    }

    async function propertyEvent(env: StreamEnvelope, eventId: string): Promise<EventOutcome> {
      const { ownerId, link } = resolve(env, eventId);
      const pmsPropertyId = pmsIdOf(env.data.id);
      if (!ownerId) return NOT_REGISTERED;
      if (!pmsPropertyId) return failed('data.id: field required');
      if (env.event === 'data.update') return link ? ignored('property records are not kept here, only their units') : NOT_LINKED;
      if (link) return ok('units import queued', await deps.sync.request(tx, [link.propertyId]));
      notifications.push(reviewNotice(env, ownerId, pmsPropertyId));
      return ok('property not linked: flagged for review');
    }

    async function leaseOrResidentEvent(env: StreamEnvelope, eventId: string): Promise<EventOutcome> {
      const { ownerId, link } = resolve(env, eventId);
      if (!ownerId) return NOT_REGISTERED;
      if (!pmsIdOf(env.data.property_id)) return failed('data.property_id: field required');
      if (!link) return NOT_LINKED;
      return ok('units import queued', await deps.sync.request(tx, [link.propertyId]));
    }

    async function syncComplete(env: StreamEnvelope, eventId: string): Promise<EventOutcome> {
      if (!resolve(env, eventId).ownerId) return NOT_REGISTERED;
      const requests = await deps.sync.request(tx, await repo.propertyIdsOfConnection(env.connectionId));
      return ok(`units import queued for ${requests.length} linked propert${requests.length === 1 ? 'y' : 'ies'}`, requests);
    }

    return {
      async prepare(events) {
        await prepareBatch(repo, events, { parsed, resolved, units });
      },

      async apply(env, eventId) {
        if (env.event === 'sync.complete') return syncComplete(env, eventId);
        switch (env.resourceType) {
          case 'unit':
            return unitEvent(env, eventId);
          case 'property':
            return propertyEvent(env, eventId);
          default:
            return leaseOrResidentEvent(env, eventId);
        }
      },

      async finish() {
        const writes = [...units.values()].flatMap((u) => (u.write ? [u.write] : []));
        await repo.writeUnits(writes, deps.now());
        await deps.notifications.notifyMany(notifications, tx);
      },
    };
  };
}
