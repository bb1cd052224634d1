import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { dayNumber, isoDateOfDay, utcDay } from '../../../platform/dates';
import type { Db } from '../../../platform/db/client';
import { conflict, notFound, unprocessable, validationFailed, type FieldError } from '../../../platform/http/errors';
import { offsetOf, toPage, type Page, type PageQuery } from '../../../platform/http/pagination';
import { TtlCache } from '../../../platform/ttl-cache';
import { defaultUnit, unitProblem } from '../../meters/units';
import { utilities } from '../../utilities/tables';
import { stateNamedIn } from '../../utilities/state-names';
import { NO_APPLICABILITY, type Sector, type Tariff, type TariffStructure, type UtilityType } from '../tariff.model';
import type { ServiceType } from '../tariff-class';
import { classify } from '../urdb.normalize';
import { toDetail, toSummary } from '../present';
import { parseRates, type RatesInput } from './rates.parse';
import { importUrdbRecord } from './urdb.import';
import { createCustomTariffRepository, type StoredCustomTariff, type VersionRow } from './repository';
import {
  MAX_CUSTOM_TARIFFS, MAX_VERSIONS, type CreateCustomTariffBody, type CreateVersionBody, type UpdateCustomTariffBody,
} from './schemas';

/** How long a process keeps a priced custom tariff: another process sees a new version within this. */
export const CUSTOM_TARIFF_CACHE_MS = 5000;
const CACHE_ENTRIES = 2000;

/** A stored tariff and each version as the engine prices it (index = version). */
interface PricedTariff {
  stored: StoredCustomTariff;
  tariffs: Tariff[];
}

/** Custom tariff ids: "ct_" and 32 hex digits, never a URDB label, so an id says where the tariff lives. */
export const isCustomTariffId = (id: string) => id.startsWith('ct_');
const newId = () => `ct_${randomUUID().replace(/-/g, '')}`;

const RATE_FIELDS = ['energy_rates', 'demand_rates', 'fixed_charges', 'riders', 'minimum_charge'] as const;

/** A version's priced content before it is stored. */
interface VersionContent {
  structure: TariffStructure;
  expirationDate: string | null;
  applicability: typeof NO_APPLICABILITY;
  assumptions: string[];
  source: 'urdb' | 'rates';
  /** The normalised URDB record (its name, sector, class and dates are the new tariff's defaults). */
  record?: Tariff;
}

/** Index of the version in force on `date` (the latest that took effect by then), -1 before the first. */
export function versionIndexOn(versions: ReadonlyArray<{ effectiveDate: string }>, date: string): number {
  let found = -1;
  versions.forEach((v, i) => { if (v.effectiveDate <= date) found = i; });
  return found;
}

/** The earlier of a published end date and the day before the next version (null: neither). */
function endOf(published: string | null, beforeNext: string | null): string | null {
  if (published === null) return beforeNext;
  return beforeNext === null || published < beforeNext ? published : beforeNext;
}

/** The tariff of one version, as the bill engine and the catalog's presenters take tariffs. */
export function tariffOfVersion(stored: StoredCustomTariff, index: number): Tariff {
  const { row, versions } = stored;
  const v = versions[index];
  const next = versions[index + 1];
  return {
    id: row.id,
    name: row.name,
    // Tariff.utilityId is the catalog's EIA id; a water department or a supplier has none.
    utilityId: row.utilityId ?? '',
    utilityName: row.utilityName,
    state: row.state,
    sector: row.sector as Sector,
    ...classify(v.structure),
    effectiveDate: v.effectiveDate,
    expirationDate: endOf(v.expirationDate, next ? isoDateOfDay(dayNumber(next.effectiveDate) - 1) : null),
    description: row.description,
    eligibility: '',
    applicability: v.applicability,
    serviceType: row.serviceType as ServiceType,
    voltage: null,
    purpose: 'general',
    classNote: null,
    sourceUrl: row.sourceUrl,
    lastUpdated: v.createdAt.toISOString(),
    structure: v.structure,
    utilityType: row.utilityType as UtilityType,
    unit: row.unit,
    notes: v.assumptions,
  };
}

/** A version of a tariff and the days of a billing period it prices (both included). */
export interface VersionSpan {
  tariff: Tariff;
  from: string;
  to: string;
}

/** A custom tariff on `date`: its version then, or why there is none. */
export type CustomTariffOn = { tariff: Tariff } | { notInForce: string };

/** The version a tariff is shown as: the one in force today, or its first before that takes effect. */
const shownVersion = (stored: StoredCustomTariff, today: string) => Math.max(0, versionIndexOn(stored.versions, today));

function present(stored: StoredCustomTariff, today: string) {
  const detail = toDetail(tariffOfVersion(stored, shownVersion(stored, today)));
  return {
    ...detail,
    utility_id: stored.row.utilityId,
    custom: true,
    created_at: stored.row.createdAt.toISOString(),
    versions: stored.versions.map((v: VersionRow, i) => {
      const d = toDetail(tariffOfVersion(stored, i));
      return {
        effective_date: v.effectiveDate,
        expiration_date: d.expiration_date,
        source: v.source as 'urdb' | 'rates',
        assumptions: v.assumptions,
        energy_rates: d.energy_rates,
        demand_rates: d.demand_rates,
        fixed_charges: d.fixed_charges,
        riders: d.riders,
        minimum_charge: d.minimum_charge,
        created_at: v.createdAt.toISOString(),
      };
    }),
  };
}

export type CustomTariffDetail = ReturnType<typeof present>;

function summary(stored: StoredCustomTariff, today: string) {
  const t = tariffOfVersion(stored, shownVersion(stored, today));
  return {
    ...toSummary(t),
    utility_id: stored.row.utilityId,
    utility_type: stored.row.utilityType as UtilityType,
    unit: stored.row.unit,
    custom: true,
    versions: stored.versions.length,
    created_at: stored.row.createdAt.toISOString(),
  };
}

export function createCustomTariffService(deps: {
  db: Db;
  now: () => Date;
  /** After the owner's rates changed (a new version): queue the re-pricing of what prices on them (never throws). */
  ratesChanged?(ownerId: string, stamp: string): Promise<void>;
}) {
  const repo = createCustomTariffRepository(deps.db);
  const today = () => utcDay(deps.now());

  /**
   * Tariffs priced recently, with their versions' Tariff objects (which keep the engine's
   * precomputation): a calculation on one reads no row. Writes through this process drop the entry at
   * once; another process sees a change within CUSTOM_TARIFF_CACHE_MS, as with the catalog's import stamp.
   */
  const cache = new TtlCache<PricedTariff>(CUSTOM_TARIFF_CACHE_MS, CACHE_ENTRIES);
  const cacheKey = (ownerId: string, id: string) => `${ownerId}|${id}`;

  /** Every tariff of an owner (not retired), priced, kept as long: what rate analysis and the bill audit compare with. */
  const ownerTariffs = new TtlCache<PricedTariff[]>(CUSTOM_TARIFF_CACHE_MS, CACHE_ENTRIES);
  /**
   * Counts the drops: a read that began before a drop may have read the rates the drop was for, so
   * its answer is used once and not kept.
   */
  let drops = 0;
  /** A write through this process: its tariff and its owner's list are read again. */
  const forget = (ownerId: string, id: string) => {
    drops++;
    cache.delete(cacheKey(ownerId, id));
    ownerTariffs.delete(ownerId);
  };

  /** The owner's tariff (not retired), from the cache or one read; null when it is not theirs. */
  async function priced(ownerId: string, id: string): Promise<PricedTariff | null> {
    const key = cacheKey(ownerId, id);
    const hit = cache.get(key);
    if (hit) return hit;
    const readAfter = drops;
    const stored = await repo.findOwned(ownerId, id);
    if (!stored) return null;
    const entry: PricedTariff = { stored, tariffs: stored.versions.map((_, i) => tariffOfVersion(stored, i)) };
    if (drops === readAfter) cache.set(key, entry);
    return entry;
  }

  async function utilityOf(id: string): Promise<{ name: string; state: string | null } | null> {
    const [row] = await deps.db.select({ name: utilities.name, state: utilities.state }).from(utilities).where(eq(utilities.id, id));
    return row ?? null;
  }

  /** The rates of a version (URDB record or rates fields) for a tariff of this type and unit. */
  function contentOf(body: CreateVersionBody | CreateCustomTariffBody, type: UtilityType, unit: string, utility: { state: string | null; name: string | null }): VersionContent {
    const given = RATE_FIELDS.filter((f) => body[f] !== undefined && body[f] !== null);
    if (body.urdb !== undefined) {
      if (given.length > 0) throw unprocessable(`give urdb or the rates (${given.join(', ')}), not both`, given[0]);
      if (type !== 'electric') throw unprocessable(`a URDB record is an electric tariff; this tariff prices ${type}`, 'urdb');
      const imported = importUrdbRecord(body.urdb, utility, deps.now());
      if (!imported.ok) throw validationFailed(imported.errors);
      const t = imported.tariff;
      // What the classification had to assume is said in every bill, as on the catalog's record.
      const assumptions = t.classNote ? [...imported.assumptions, t.classNote] : imported.assumptions;
      return { structure: t.structure, expirationDate: t.expirationDate, applicability: t.applicability, assumptions, source: 'urdb', record: t };
    }
    const parsed = parseRates(body as RatesInput, type, unit);
    if (!parsed.ok) throw validationFailed(parsed.errors);
    return { structure: parsed.structure, expirationDate: null, applicability: { ...NO_APPLICABILITY }, assumptions: [], source: 'rates' };
  }

  async function owned(ownerId: string | null, id: string): Promise<StoredCustomTariff> {
    const found = ownerId === null || !isCustomTariffId(id) ? null : await repo.findOwned(ownerId, id);
    if (!found) throw notFound('Tariff not found');
    return found;
  }

  return {
    /** POST /tariffs/custom: a tariff from a URDB record or from rates in the detail shape. */
    async create(ownerId: string, body: CreateCustomTariffBody): Promise<CustomTariffDetail> {
      const errors: FieldError[] = [];
      let utility: { name: string; state: string | null } | null = null;
      const urdb = body.urdb;
      const utilityId = body.utility_id ?? (urdb && Number.isInteger(urdb.eiaid) ? String(urdb.eiaid) : null);
      if (utilityId !== null) {
        utility = await utilityOf(utilityId);
        if (!utility && body.utility_id) errors.push({ field: 'utility_id', message: 'Utility not found' });
      }
      const type: UtilityType = body.utility_type ?? 'electric';
      const unit = body.unit ?? defaultUnit(type);
      const unitError = unitProblem(type, unit);
      if (unitError) errors.push({ field: 'unit', message: unitError });
      if (!urdb) {
        if (!body.name) errors.push({ field: 'name', message: 'field required' });
        if (!body.sector) errors.push({ field: 'sector', message: 'field required' });
        if (!body.utility_name && !utility) errors.push({ field: 'utility_name', message: 'field required (or a utility_id of a known utility)' });
      }
      if (errors.length > 0) throw validationFailed(errors);
      const { record: fromRecord, ...content } = contentOf(body, type, unit, { state: utility?.state ?? null, name: utility?.name ?? null });
      // With a URDB record, what the record says, unless the body says otherwise.
      const effectiveDate = body.effective_date ?? fromRecord?.effectiveDate ?? today();
      const stored = await repo.insert({
        id: newId(),
        ownerId,
        name: body.name ?? fromRecord?.name ?? '',
        utilityId: utility ? utilityId : null,
        // A utility's tariffs carry the name its utility record has, as the catalog's do.
        utilityName: utility?.name ?? body.utility_name ?? fromRecord?.utilityName ?? '',
        // A multi-state utility's record names its state ("PacifiCorp (Oregon)"), as the catalog reads it.
        state: body.state ?? (urdb && typeof urdb.utility === 'string' ? stateNamedIn(urdb.utility) : null) ?? utility?.state ?? null,
        sector: body.sector ?? fromRecord?.sector ?? 'commercial',
        utilityType: type,
        unit,
        serviceType: body.service_type ?? fromRecord?.serviceType ?? 'bundled',
        description: body.description ?? fromRecord?.description ?? '',
        sourceUrl: body.source_url ?? fromRecord?.sourceUrl ?? '',
      }, { ...content, effectiveDate }, MAX_CUSTOM_TARIFFS);
      if (stored === 'limit') throw unprocessable(`at most ${MAX_CUSTOM_TARIFFS} custom tariffs per account: retire one (DELETE /tariffs/{id}) first`, '');
      ownerTariffs.delete(ownerId);
      return present(stored, today());
    },

    /** GET /tariffs/custom: the caller's tariffs, oldest first. */
    async list(ownerId: string, q: PageQuery): Promise<Page<ReturnType<typeof summary>>> {
      const { items, total } = await repo.page(ownerId, offsetOf(q), q.per_page);
      const day = today();
      return toPage(items.map((s) => summary(s, day)), total, q);
    },

    /** GET /tariffs/{id} of a custom tariff: its owner's only. */
    async detail(ownerId: string | null, id: string): Promise<CustomTariffDetail> {
      return present(await owned(ownerId, id), today());
    },

    /** PATCH /tariffs/{id}: name, description, source. */
    async update(ownerId: string, id: string, body: UpdateCustomTariffBody): Promise<CustomTariffDetail> {
      await owned(ownerId, id);
      if (body.name === undefined && body.description === undefined && body.source_url === undefined) {
        throw unprocessable('at least one of name, description, source_url is required', '');
      }
      await repo.update(id, { name: body.name, description: body.description, sourceUrl: body.source_url }, deps.now());
      forget(ownerId, id);
      return present(await owned(ownerId, id), today());
    },

    /** DELETE /tariffs/{id}: retires it, unless a property or meter prices on it. */
    async retire(ownerId: string, id: string): Promise<void> {
      await owned(ownerId, id);
      const users = await repo.users(ownerId, id);
      const named = [
        ...users.properties.map((p) => `property '${p.name}' (${p.id})`),
        ...users.meters.map((m) => `meter '${m.name}' (${m.id})`),
      ];
      if (named.length > 0) throw conflict(`Tariff is in use by ${named.join(', ')}: give them another tariff first`);
      await repo.retire(id, deps.now());
      forget(ownerId, id);
    },

    /** POST /tariffs/custom/{id}/versions: new rates from an effective date. */
    async addVersion(ownerId: string, id: string, body: CreateVersionBody): Promise<CustomTariffDetail> {
      const stored = await owned(ownerId, id);
      const { row } = stored;
      const utility = row.utilityId ? await utilityOf(row.utilityId) : null;
      const { record: _record, ...content } = contentOf(body, row.utilityType as UtilityType, row.unit, { state: utility?.state ?? row.state, name: utility?.name ?? row.utilityName });
      const outcome = await repo.insertVersion({ ...content, tariffId: id, effectiveDate: body.effective_date }, MAX_VERSIONS, deps.now());
      if (outcome === 'limit') throw unprocessable(`at most ${MAX_VERSIONS} versions per tariff`, 'effective_date');
      if (outcome === 'exists') throw conflict(`Tariff already has a version effective ${body.effective_date}`);
      forget(ownerId, id);
      await deps.ratesChanged?.(ownerId, `${id}.${body.effective_date}`);
      return present(await owned(ownerId, id), today());
    },

    /**
     * The owner's custom tariffs among `ids`, each as its version in force on `date`; ids that are
     * not the owner's (or not custom) are left out.
     */
    async onDate(ownerId: string | null, ids: string[], date: string): Promise<Map<string, CustomTariffOn>> {
      const found = new Map<string, CustomTariffOn>();
      const custom = ids.filter(isCustomTariffId);
      if (ownerId === null || custom.length === 0) return found;
      for (const id of custom) {
        const entry = await priced(ownerId, id);
        if (!entry) continue;
        const i = versionIndexOn(entry.stored.versions, date);
        found.set(id, i === -1 ? { notInForce: entry.stored.versions[0]!.effectiveDate } : { tariff: entry.tariffs[i]! });
      }
      return found;
    },

    /**
     * The owner's tariff over a billing period: each version in force during it with the days it
     * covers (first day, last day), oldest first; null when it is not the owner's.
     */
    async overPeriod(ownerId: string | null, id: string, start: string, end: string): Promise<VersionSpan[] | { notInForce: string } | null> {
      if (ownerId === null || !isCustomTariffId(id)) return null;
      const entry = await priced(ownerId, id);
      if (!entry) return null;
      const { stored } = entry;
      const first = versionIndexOn(stored.versions, start);
      if (first === -1) return { notInForce: stored.versions[0]!.effectiveDate };
      const spans: VersionSpan[] = [];
      for (let i = first; i < stored.versions.length && stored.versions[i]!.effectiveDate <= end; i++) {
        const next = stored.versions[i + 1];
        const from = i === first ? start : stored.versions[i]!.effectiveDate;
        const to = next && next.effectiveDate <= end ? isoDateOfDay(dayNumber(next.effectiveDate) - 1) : end;
        spans.push({ tariff: entry.tariffs[i]!, from, to });
      }
      return spans;
    },

    /**
     * The owner's tariff as properties and meters price it today: the version in force, or its first
     * before that takes effect; null when it is not the owner's.
     */
    async current(ownerId: string, id: string): Promise<Tariff | null> {
      if (!isCustomTariffId(id)) return null;
      const entry = await priced(ownerId, id);
      return entry ? entry.tariffs[shownVersion(entry.stored, today())]! : null;
    },

    /** Every tariff of the owner in force on `date` (rate analysis alternatives, due diligence, search). */
    async inForce(ownerId: string, date: string): Promise<Tariff[]> {
      let all = ownerTariffs.get(ownerId);
      if (!all) {
        const readAfter = drops;
        all = (await repo.allOfOwner(ownerId)).map((stored) => ({ stored, tariffs: stored.versions.map((_, i) => tariffOfVersion(stored, i)) }));
        if (drops === readAfter) ownerTariffs.set(ownerId, all);
      }
      return all.flatMap(({ stored, tariffs }) => {
        const i = versionIndexOn(stored.versions, date);
        return i === -1 ? [] : [tariffs[i]!];
      });
    },

    /**
     * Drops every priced tariff this process keeps. A job that re-prices calls it first: the change
     * that queued it (a version added through another process) is then in what it reads, without
     * waiting for the entries to expire.
     */
    forgetPricedTariffs(): void {
      drops++;
      cache.clear();
      ownerTariffs.clear();
    },

    /** The owner's tariffs as search rows (the version in force today, else the first). */
    async summaries(ownerId: string) {
      const day = today();
      return (await repo.allOfOwner(ownerId)).map((s) => summary(s, day));
    },
  };
}

export type CustomTariffService = ReturnType<typeof createCustomTariffService>;
