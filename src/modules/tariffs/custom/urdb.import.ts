/**
 * A URDB record as the URDB API returns it, made a custom tariff's version through the catalog
 * import's own normaliser (urdb.normalize.ts), so it prices exactly as the catalog record does,
 * once it passes the input checks of urdb.check.ts (tiers in order, schedules naming periods with rates).
 * Pure. What the record publishes that the engine does not price is listed, never dropped
 * silently (tariffs README "Custom tariffs").
 */
import type { FieldError } from '../../../platform/http/errors';
import { normalizeUrdbRecord } from '../urdb.normalize';
import { checkUrdbRecord } from './urdb.check';
import type { UrdbRecord } from '../urdb.record';
import type { Tariff } from '../tariff.model';

/** Keys the normaliser reads, and keys that describe the record rather than price it. */
const READ_OR_DESCRIPTIVE = new Set([
  'label',
  'eiaid',
  'utility',
  'name',
  'sector',
  'uri',
  'servicetype',
  'startdate',
  'enddate',
  'revisions',
  'description',
  'basicinformationcomments',
  'energycomments',
  'demandcomments',
  'approved',
  'country',
  'source',
  'sourceparent',
  'supersedes',
  'is_default',
  'latest_update',
  'energyratestructure',
  'energyweekdayschedule',
  'energyweekendschedule',
  'demandratestructure',
  'demandweekdayschedule',
  'demandweekendschedule',
  'demandrateunit',
  'demandunits',
  'flatdemandstructure',
  'flatdemandmonths',
  'flatdemandunit',
  'coincidentratestructure',
  'coincidentschedule',
  'coincidentrateunit',
  'demandreactivepowercharge',
  'demandwindow',
  'lookbackpercent',
  'lookbackmonths',
  'lookbackrange',
  'fixedchargefirstmeter',
  'fixedchargeunits',
  'fixedchargeeaaddl',
  'mincharge',
  'minchargeunits',
  'fueladjustmentsmonthly',
  'dgrules',
  'peakkwcapacitymin',
  'peakkwcapacitymax',
  'peakkwhusagemin',
  'peakkwhusagemax',
  'voltagecategory',
  'phasewiring',
  'voltageminimum',
  'voltagemaximum',
]);

/** The record keys named in a normaliser message, longest first, so "energyweekdayschedule" wins over "energy". */
const KEYS_BY_LENGTH = [...READ_OR_DESCRIPTIVE].sort((a, b) => b.length - a.length);

/** The JSON path of a normaliser message: `urdb.<the record key it names>`, or `urdb`. */
function pathOf(reason: string): string {
  const key = KEYS_BY_LENGTH.find((k) => new RegExp(`\\b${k}\\b`).test(reason));
  return key ? `urdb.${key}` : 'urdb';
}

function isPresent(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  return !(Array.isArray(value) && value.length === 0);
}

export type ImportedRecord = { ok: true; tariff: Tariff; assumptions: string[] } | { ok: false; errors: FieldError[] };

/**
 * The tariff a record normalises to (its id and utility are the caller's to set), with what a bill on
 * it must assume: the normaliser's rules for upstream quirks, and each published feature the engine
 * does not price (energyattrs, demandattrs, ...).
 */
export function importUrdbRecord(
  record: Record<string, unknown>,
  utility: { state: string | null; name: string | null },
  now: Date,
): ImportedRecord {
  // The caller's own record is input: tiers out of order or a schedule naming a period without rates is refused (urdb.check.ts).
  const problems = checkUrdbRecord(record);
  if (problems.length > 0) return { ok: false, errors: problems };
  // A record pasted without its URDB label still prices; the label is not our id.
  const labelled = record.label === undefined ? { ...record, label: '0'.repeat(24) } : record;
  const result = normalizeUrdbRecord(labelled as unknown as UrdbRecord, { state: utility.state, name: utility.name, importedAt: now });
  if (!result.ok) return { ok: false, errors: [{ field: pathOf(result.reason), message: result.reason }] };
  const unpriced = Object.keys(record)
    .filter((k) => !READ_OR_DESCRIPTIVE.has(k) && isPresent(record[k]))
    .sort();
  return {
    ok: true,
    tariff: result.tariff,
    assumptions: [
      ...result.warnings.map((w) => `URDB record: ${w}`),
      ...unpriced.map((k) => `URDB field ${k} is published but not priced: bills on this tariff leave it out`),
    ],
  };
}
