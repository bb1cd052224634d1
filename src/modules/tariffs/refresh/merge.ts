/**
 * What a page of refreshed URDB records changes in the tariffs of one utility. Pure: no I/O.
 *
 * The records go through the bundled import's own normaliser and classifier (`normalizeBundle`:
 * state, merged utilities, urdb.normalize.ts, tariff-class.ts), so a refreshed record is stored
 * exactly as the import would store it. Then, over the utility's stored tariffs and the new ones
 * together, the revisions rule (revisions.ts, the import's): a record that is a later revision of a
 * schedule we hold supersedes it, and the older one, when it published no end, ends the day before
 * the newer took effect. Versions, never overwrites: the older row stays, so a billing period before
 * the change still prices on it. A record the API publishes with an end date ends ours (the
 * normaliser reads `enddate` as the expiration date).
 *
 * Each record is `new` (a label we did not hold), `changed` (a label we held with other rates,
 * dates or class), `unchanged`, or `rejected` with the normaliser's reason.
 */

import type { Tariff } from '../tariff.model';
import type { UrdbRecord } from '../urdb.record';
import type { UtilityReference } from '../../utilities/reference';
import { normalizeBundle, type RawLine } from '../bundled';
import { applySupersessions, dayBefore } from '../revisions';

export interface RefreshReport {
  /** Records the API returned. */
  fetched: number;
  new: string[];
  changed: string[];
  unchanged: number;
  /** Tariffs a later revision superseded in this refresh, with the day they now end. */
  superseded: Array<{ id: string; superseded_by: string; expiration_date: string | null }>;
  /** Tariffs the API now publishes with an end date they did not have. */
  ended: Array<{ id: string; expiration_date: string }>;
  rejected: Array<{ id: string; eia_id: string; reason: string }>;
}

export const emptyReport = (): RefreshReport => ({
  fetched: 0,
  new: [],
  changed: [],
  unchanged: 0,
  superseded: [],
  ended: [],
  rejected: [],
});

/** Adds one page's report to a run's. */
export function addReport(into: RefreshReport, page: RefreshReport): RefreshReport {
  return {
    fetched: into.fetched + page.fetched,
    new: [...into.new, ...page.new],
    changed: [...into.changed, ...page.changed],
    unchanged: into.unchanged + page.unchanged,
    superseded: [...into.superseded, ...page.superseded],
    ended: [...into.ended, ...page.ended],
    rejected: [...into.rejected, ...page.rejected],
  };
}

export interface MergeResult {
  /** Tariffs to store (upsert by id): the new and changed records, and stored ones the rule changed. */
  write: Tariff[];
  /** The raw records of the new and changed tariffs, kept so a re-import of the bundled data keeps them. */
  records: Array<{ label: string; record: UrdbRecord }>;
  report: RefreshReport;
}

/** JSON with every object's keys in order: a stored row and a normalised record list their keys in other orders. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0)))
      : x,
  );
}

/** What makes two versions of one label the same: everything but when and how it was stored and the rule's fields. */
function sameContent(a: Tariff, b: Tariff): boolean {
  const strip = ({ lastUpdated: _l, supersededBy: _s, source: _o, sourceUpdatedAt: _u, expirationDate: _e, ...rest }: Tariff) => rest;
  return canonical(strip(a)) === canonical(strip(b));
}

/**
 * Merges the records fetched for utility `eiaId` (each as the API answered it, checked here) into
 * its stored tariffs `stored`. `now` stamps the refreshed rows.
 */
export function mergeRefreshed(eiaId: string, items: unknown[], stored: readonly Tariff[], ref: UtilityReference, now: Date): MergeResult {
  const report = emptyReport();
  report.fetched = items.length;
  const lines: RawLine[] = [];
  items.forEach((item, i) => {
    const where = `record ${i + 1} of the page`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      report.rejected.push({ id: where, eia_id: eiaId, reason: 'not a JSON object' });
      return;
    }
    const r = item as Partial<UrdbRecord>;
    if (typeof r.label !== 'string' || r.label === '') {
      report.rejected.push({ id: where, eia_id: eiaId, reason: 'label missing' });
      return;
    }
    if (String(r.eiaid) !== eiaId) {
      report.rejected.push({ id: r.label, eia_id: eiaId, reason: `eiaid ${String(r.eiaid)} is not the utility asked for (${eiaId})` });
      return;
    }
    lines.push({ line: i + 1, record: r as UrdbRecord });
  });
  const bundle = normalizeBundle(lines, ref, now);
  for (const s of bundle.skipped) report.rejected.push({ id: s.id, eia_id: eiaId, reason: s.reason });

  const storedById = new Map(stored.map((t) => [t.id, t]));
  const fresh: Tariff[] = [];
  const recordOf = new Map(lines.map((l) => [l.record!.label, l.record!]));
  for (const t of bundle.tariffs) {
    const held = storedById.get(t.id);
    const refreshed: Tariff = { ...t, source: 'refreshed', sourceUpdatedAt: now.toISOString() };
    if (!held) {
      report.new.push(t.id);
      fresh.push(refreshed);
    } else if (!sameContent(held, t) || (t.expirationDate !== null && t.expirationDate !== held.expirationDate)) {
      report.changed.push(t.id);
      if (t.expirationDate !== null && t.expirationDate !== held.expirationDate)
        report.ended.push({ id: t.id, expiration_date: t.expirationDate });
      fresh.push(refreshed);
    } else {
      report.unchanged++;
    }
  }

  // The rule over the utility as it will be: stored rows (an end the rule gave them is taken back, so a
  // revision between them and their successor is found) and the refreshed ones.
  const freshIds = new Set(fresh.map((t) => t.id));
  const kept = stored
    .filter((t) => !freshIds.has(t.id))
    .map((t) => {
      const successor = t.supersededBy ? storedById.get(t.supersededBy) : undefined;
      const ruleGaveEnd = successor?.effectiveDate && t.expirationDate === dayBefore(successor.effectiveDate);
      return ruleGaveEnd ? { ...t, expirationDate: null } : t;
    });
  const revised = applySupersessions([...kept, ...fresh]);
  const write: Tariff[] = [];
  for (const t of revised.tariffs) {
    const before = storedById.get(t.id);
    if (freshIds.has(t.id)) {
      write.push(t);
    } else if (before && (before.supersededBy !== t.supersededBy || before.expirationDate !== t.expirationDate)) {
      write.push(t);
    }
    if (t.supersededBy && before?.supersededBy !== t.supersededBy) {
      report.superseded.push({ id: t.id, superseded_by: t.supersededBy, expiration_date: t.expirationDate });
    }
  }
  return {
    write,
    records: [...freshIds].map((label) => ({ label, record: recordOf.get(label)! })),
    report,
  };
}
