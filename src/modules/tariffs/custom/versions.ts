import { dayNumber, isoDateOfDay } from '../../../platform/dates';
import type { Sector, Tariff, UtilityType } from '../tariff.model';
import type { ServiceType } from '../tariff-class';
import { classify } from '../urdb.normalize';
import type { StoredCustomTariff } from './repository';

/** Index of the version in force on `date` (the latest that took effect by then), -1 before the first. */
export function versionIndexOn(versions: ReadonlyArray<{ effectiveDate: string }>, date: string): number {
  let found = -1;
  versions.forEach((v, i) => {
    if (v.effectiveDate <= date) found = i;
  });
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
    source: 'custom',
    sourceUpdatedAt: v.createdAt.toISOString(),
  };
}

/**
 * A version of a tariff (an own tariff's version, or a catalog schedule's revision: revision-spans.ts)
 * and the days of a billing period it prices (both included).
 */
export interface VersionSpan {
  tariff: Tariff;
  from: string;
  to: string;
}

/** A custom tariff on `date`: its version then, or why there is none. */
export type CustomTariffOn = { tariff: Tariff } | { notInForce: string };

/** An owner's tariff read once and priced over many billing periods or dates (a meter's bills in one audit). */
export interface OwnedTariffReader {
  /** versionSpans over the period. */
  over(start: string, end: string): VersionSpan[] | { notInForce: string };
  /** The version in force on `date`, or why there is none. */
  on(date: string): CustomTariffOn;
}

export function ownedTariffReader(stored: StoredCustomTariff): OwnedTariffReader {
  // Each version as the engine prices it (index = version), built once.
  const tariffs = stored.versions.map((_, i) => tariffOfVersion(stored, i));
  return {
    over: (start, end) => versionSpans(stored, tariffs, start, end),
    on: (date) => {
      const i = versionIndexOn(stored.versions, date);
      return i === -1 ? { notInForce: stored.versions[0]!.effectiveDate } : { tariff: tariffs[i]! };
    },
  };
}

/** The version a tariff is shown as: the one in force today, or its first before that takes effect. */
export const shownVersion = (stored: StoredCustomTariff, today: string) => Math.max(0, versionIndexOn(stored.versions, today));

/**
 * Each version in force during a billing period with the days it covers (first day, last day),
 * oldest first; `tariffs` are the stored tariff's versions as priced (index = version).
 */
export function versionSpans(
  stored: StoredCustomTariff,
  tariffs: Tariff[],
  start: string,
  end: string,
): VersionSpan[] | { notInForce: string } {
  const first = versionIndexOn(stored.versions, start);
  if (first === -1) return { notInForce: stored.versions[0]!.effectiveDate };
  const spans: VersionSpan[] = [];
  for (let i = first; i < stored.versions.length && stored.versions[i]!.effectiveDate <= end; i++) {
    const next = stored.versions[i + 1];
    const from = i === first ? start : stored.versions[i]!.effectiveDate;
    const to = next && next.effectiveDate <= end ? isoDateOfDay(dayNumber(next.effectiveDate) - 1) : end;
    spans.push({ tariff: tariffs[i]!, from, to });
  }
  return spans;
}
