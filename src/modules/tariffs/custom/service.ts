import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { utcDay } from '../../../platform/dates';
import type { Db } from '../../../platform/db/client';
import { conflict, notFound, unprocessable, validationFailed, type FieldError } from '../../../platform/http/errors';
import { offsetOf, toPage, type Page, type PageQuery } from '../../../platform/http/pagination';
import { defaultUnit, unitProblem } from '../../meters/units';
import { viewOfUtilities } from '../../utilities/public';
import { stateNamedIn } from '../../utilities/state-names';
import { NO_APPLICABILITY, type Tariff, type TariffStructure, type UtilityType, type VersionSource } from '../tariff.model';
import { parseRates, type RatesInput } from './rates.parse';
import { importUrdbRecord } from './urdb.import';
import { createCustomTariffRepository, type CustomTariffRepository, type StoredCustomTariff } from './repository';
import { present, summary, type CustomTariffDetail, type CustomTariffSummary } from './present';
import { ownedTariffReader, shownVersion, tariffOfVersion, versionIndexOn, type CustomTariffOn, type OwnedTariffReader } from './versions';
import {
  MAX_CUSTOM_TARIFFS,
  MAX_VERSIONS,
  type CreateCustomTariffBody,
  type CreateVersionBody,
  type UpdateCustomTariffBody,
} from './schemas';

/** Custom tariff ids: "ct_" and 32 hex digits, never a URDB label, so an id says where the tariff lives. */
export const isCustomTariffId = (id: string) => id.startsWith('ct_');
const utilityView = viewOfUtilities('utility_view');

const newId = () => `ct_${randomUUID().replace(/-/g, '')}`;

const RATE_FIELDS = ['energy_rates', 'demand_rates', 'fixed_charges', 'riders', 'minimum_charge'] as const;

/** A version's priced content before it is stored. */
interface VersionContent {
  structure: TariffStructure;
  expirationDate: string | null;
  applicability: typeof NO_APPLICABILITY;
  assumptions: string[];
  source: VersionSource;
  /** The normalised URDB record (its name, sector, class and dates are the new tariff's defaults). */
  record?: Tariff;
}

export interface CustomTariffDeps {
  db: Db;
  now: () => Date;
  /** After the owner's rates changed (a new version): queue the re-pricing of what prices on them (never throws). */
  ratesChanged?(ownerId: string, stamp: string): Promise<void>;
}

async function utilityOf(db: Db, id: string): Promise<{ name: string; state: string | null } | null> {
  const [row] = await db.select({ name: utilityView.name, state: utilityView.state }).from(utilityView).where(eq(utilityView.id, id));
  return row ?? null;
}

/** The rates of a version (URDB record or rates fields) for a tariff of this type and unit. */
function contentOf(
  deps: CustomTariffDeps,
  body: CreateVersionBody | CreateCustomTariffBody,
  type: UtilityType,
  unit: string,
  utility: { state: string | null; name: string | null },
): VersionContent {
  const given = RATE_FIELDS.filter((f) => body[f] !== undefined && body[f] !== null);
  if (body.urdb !== undefined) {
    if (given.length > 0) throw unprocessable(`give urdb or the rates (${given.join(', ')}), not both`, given[0]);
    if (type !== 'electric') throw unprocessable(`a URDB record is an electric tariff; this tariff prices ${type}`, 'urdb');
    const imported = importUrdbRecord(body.urdb, utility, deps.now());
    if (!imported.ok) throw validationFailed(imported.errors);
    const t = imported.tariff;
    // What the classification had to assume is said in every bill, as on the catalog's record.
    const assumptions = t.classNote ? [...imported.assumptions, t.classNote] : imported.assumptions;
    return {
      structure: t.structure,
      expirationDate: t.expirationDate,
      applicability: t.applicability,
      assumptions,
      source: 'urdb',
      record: t,
    };
  }
  const parsed = parseRates(body as RatesInput, type, unit);
  if (!parsed.ok) throw validationFailed(parsed.errors);
  return { structure: parsed.structure, expirationDate: null, applicability: { ...NO_APPLICABILITY }, assumptions: [], source: 'rates' };
}

/** POST /tariffs/custom: a tariff from a URDB record or from rates in the detail shape. */
async function createTariff(
  deps: CustomTariffDeps,
  repo: CustomTariffRepository,
  ownerId: string,
  body: CreateCustomTariffBody,
): Promise<CustomTariffDetail> {
  const today = () => utcDay(deps.now());
  const errors: FieldError[] = [];
  let utility: { name: string; state: string | null } | null = null;
  const urdb = body.urdb;
  const utilityId = body.utility_id ?? (urdb && Number.isInteger(urdb.eiaid) ? String(urdb.eiaid) : null);
  if (utilityId !== null) {
    utility = await utilityOf(deps.db, utilityId);
    if (!utility && body.utility_id) errors.push({ field: 'utility_id', message: 'Utility not found' });
  }
  const type: UtilityType = body.utility_type ?? 'electric';
  const unit = body.unit ?? defaultUnit(type);
  const unitError = unitProblem(type, unit);
  if (unitError) errors.push({ field: 'unit', message: unitError });
  if (!urdb) {
    if (!body.name) errors.push({ field: 'name', message: 'field required' });
    if (!body.sector) errors.push({ field: 'sector', message: 'field required' });
    if (!body.utility_name && !utility)
      errors.push({ field: 'utility_name', message: 'field required (or a utility_id of a known utility)' });
  }
  if (errors.length > 0) throw validationFailed(errors);
  const { record: fromRecord, ...content } = contentOf(deps, body, type, unit, {
    state: utility?.state ?? null,
    name: utility?.name ?? null,
  });
  // With a URDB record, what the record says, unless the body says otherwise.
  const effectiveDate = body.effective_date ?? fromRecord?.effectiveDate ?? today();
  const stored = await repo.insert(
    {
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
    },
    { ...content, effectiveDate },
    MAX_CUSTOM_TARIFFS,
  );
  if (stored === 'limit')
    throw unprocessable(`at most ${MAX_CUSTOM_TARIFFS} custom tariffs per account: retire one (DELETE /tariffs/{id}) first`, '');
  return present(stored, today());
}

/**
 * The owner's custom tariffs among `ids`, each as its version in force on `date`; ids that are
 * not the owner's (or not custom) are left out.
 */
async function customOnDate(
  repo: CustomTariffRepository,
  ownerId: string | null,
  ids: string[],
  date: string,
): Promise<Map<string, CustomTariffOn>> {
  const found = new Map<string, CustomTariffOn>();
  for (const id of ids) {
    const reader = await ownedReader(repo, ownerId, id);
    if (reader) found.set(id, reader.on(date));
  }
  return found;
}

/** The owner's custom tariff read once for many periods or dates; null when it is not the owner's (or not custom). */
async function ownedReader(repo: CustomTariffRepository, ownerId: string | null, id: string): Promise<OwnedTariffReader | null> {
  if (ownerId === null || !isCustomTariffId(id)) return null;
  const stored = await repo.findOwned(ownerId, id);
  return stored ? ownedTariffReader(stored) : null;
}

/** The owner's custom tariff, or 404. */
async function ownedTariff(repo: CustomTariffRepository, ownerId: string | null, id: string): Promise<StoredCustomTariff> {
  const found = ownerId === null || !isCustomTariffId(id) ? null : await repo.findOwned(ownerId, id);
  if (!found) throw notFound('Tariff not found');
  return found;
}

/** DELETE /tariffs/{id}: retires it, unless a property or meter prices on it. */
async function retireTariff(deps: CustomTariffDeps, repo: CustomTariffRepository, ownerId: string, id: string): Promise<void> {
  await ownedTariff(repo, ownerId, id);
  const users = await repo.users(ownerId, id);
  const named = [
    ...users.properties.map((p) => `property '${p.name}' (${p.id})`),
    ...users.meters.map((m) => `meter '${m.name}' (${m.id})`),
  ];
  if (named.length > 0) throw conflict(`Tariff is in use by ${named.join(', ')}: give them another tariff first`);
  await repo.retire(id, deps.now());
}

/** POST /tariffs/custom/{id}/versions: new rates from an effective date. */
async function addTariffVersion(
  deps: CustomTariffDeps,
  repo: CustomTariffRepository,
  ownerId: string,
  id: string,
  body: CreateVersionBody,
): Promise<CustomTariffDetail> {
  const stored = await ownedTariff(repo, ownerId, id);
  const { row } = stored;
  const utility = row.utilityId ? await utilityOf(deps.db, row.utilityId) : null;
  const { record: _record, ...content } = contentOf(deps, body, row.utilityType as UtilityType, row.unit, {
    state: utility?.state ?? row.state,
    name: utility?.name ?? row.utilityName,
  });
  const outcome = await repo.insertVersion({ ...content, tariffId: id, effectiveDate: body.effective_date }, MAX_VERSIONS, deps.now());
  if (outcome === 'limit') throw unprocessable(`at most ${MAX_VERSIONS} versions per tariff`, 'effective_date');
  if (outcome === 'exists') throw conflict(`Tariff already has a version effective ${body.effective_date}`);
  await deps.ratesChanged?.(ownerId, `${id}.${body.effective_date}`);
  return present(await ownedTariff(repo, ownerId, id), utcDay(deps.now()));
}

export function createCustomTariffService(deps: CustomTariffDeps) {
  const repo = createCustomTariffRepository(deps.db);
  const today = () => utcDay(deps.now());

  const owned = (ownerId: string | null, id: string) => ownedTariff(repo, ownerId, id);

  return {
    /** POST /tariffs/custom: a tariff from a URDB record or from rates in the detail shape. */
    create: (ownerId: string, body: CreateCustomTariffBody): Promise<CustomTariffDetail> => createTariff(deps, repo, ownerId, body),

    /** GET /tariffs/custom: the caller's tariffs, oldest first. */
    async list(ownerId: string, q: PageQuery): Promise<Page<CustomTariffSummary>> {
      const { items, total } = await repo.page(ownerId, offsetOf(q), q.per_page);
      const day = today();
      return toPage(
        items.map((s) => summary(s, day)),
        total,
        q,
      );
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
      return present(await owned(ownerId, id), today());
    },

    /** DELETE /tariffs/{id}: retires it, unless a property or meter prices on it. */
    retire: (ownerId: string, id: string): Promise<void> => retireTariff(deps, repo, ownerId, id),

    /** POST /tariffs/custom/{id}/versions: new rates from an effective date. */
    addVersion: (ownerId: string, id: string, body: CreateVersionBody): Promise<CustomTariffDetail> =>
      addTariffVersion(deps, repo, ownerId, id, body),

    /**
     * The owner's custom tariffs among `ids`, each as its version in force on `date`; ids that are
     * not the owner's (or not custom) are left out.
     */
    onDate: (ownerId: string | null, ids: string[], date: string): Promise<Map<string, CustomTariffOn>> =>
      customOnDate(repo, ownerId, ids, date),

    /**
     * The owner's tariff read once, to price many billing periods (each version in force during one,
     * with the days it covers, oldest first) or dates; null when it is not the owner's.
     */
    reader: (ownerId: string | null, id: string): Promise<OwnedTariffReader | null> => ownedReader(repo, ownerId, id),

    /**
     * The owner's tariff as properties and meters price it today: the version in force, or its first
     * before that takes effect; null when it is not the owner's.
     */
    async current(ownerId: string, id: string): Promise<Tariff | null> {
      if (!isCustomTariffId(id)) return null;
      const stored = await repo.findOwned(ownerId, id);
      return stored ? tariffOfVersion(stored, shownVersion(stored, today())) : null;
    },

    /** Every tariff of the owner in force on `date` (rate analysis alternatives, due diligence, search). */
    async inForce(ownerId: string, date: string): Promise<Tariff[]> {
      return (await repo.allOfOwner(ownerId)).flatMap((stored) => {
        const i = versionIndexOn(stored.versions, date);
        return i === -1 ? [] : [tariffOfVersion(stored, i)];
      });
    },

    /** The owner's tariffs as search rows (the version in force today, else the first). */
    async summaries(ownerId: string) {
      const day = today();
      return (await repo.allOfOwner(ownerId)).map((s) => summary(s, day));
    },
  };
}

export type CustomTariffService = ReturnType<typeof createCustomTariffService>;
