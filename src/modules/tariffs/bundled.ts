import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Tariff } from './tariff.model';
import type { UrdbRecord } from './urdb.record';
import { normalizeUrdbRecord } from './urdb.normalize';
import type { UtilityReference } from '../utilities/reference';
import { stateNamedIn, stateNamedInAddress } from '../utilities/state-names';
import { withPredecessorNote } from '../utilities/successors';
import { applySupersessions, type Supersession } from './revisions';

export const URDB_FILE = 'urdb_tariffs.jsonl.gz';

export interface RawLine {
  line: number;
  record: UrdbRecord | null;
  /** Why the line could not be read as a record. */
  error?: string;
}

/** The URDB records of the bundled file, one per line; `labels` keeps only those. */
export function readUrdbLines(dir: string, labels?: ReadonlySet<string>): RawLine[] {
  return urdbLinesOf(zlib.gunzipSync(fs.readFileSync(path.join(dir, URDB_FILE))).toString('utf8'), '', labels);
}

/**
 * The records of a URDB JSONL text, one per non-blank line: `line` is the 1-based line number in
 * that text, and a line that is not a JSON object (an array included) comes back with `record: null`
 * and the reason in `error`, after `where` (the file's name and a space, or nothing for the main
 * bundle). `labels` keeps only those records.
 */
export function urdbLinesOf(text: string, where: string, labels?: ReadonlySet<string>): RawLine[] {
  const out: RawLine[] = [];
  text.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    // Cheap pre-filter so tests reading a handful of records skip parsing the other 13,000.
    if (labels && ![...labels].some((label) => l.includes(label))) return;
    try {
      const record = JSON.parse(l) as UrdbRecord;
      if (record === null || typeof record !== 'object' || Array.isArray(record)) throw new Error('not an object');
      if (labels && !labels.has(record.label)) return;
      out.push({ line: i + 1, record });
    } catch (err) {
      out.push({ line: i + 1, record: null, error: `${where}line ${i + 1} is not a JSON object (${(err as Error).message})` });
    }
  });
  return out;
}

export interface NormalizedBundle {
  recordsRead: number;
  tariffs: Tariff[];
  skipped: Array<{ id: string; reason: string }>;
  /** Every rule applied to an upstream quirk, per tariff. */
  warnings: Array<{ id: string; warning: string }>;
  /**
   * Every application of the revisions rule (revisions.ts): a record that a later revision of its
   * schedule supersedes, its successor, the rule (same_name, revision_number) and the expiration date
   * it was given (null when it kept a published one).
   */
  supersessions: Supersession[];
}

/**
 * A tariff's state: when its utility serves several states in EIA-861 and the
 * URDB utility name ends with one of them in parentheses ("PacifiCorp
 * (Oregon)"), that state; else, for such a utility, the one state its source
 * address names, if it serves it (PacifiCorp's unnamed records from
 * ".../California/Approved_Tariffs/..." are California's, not Utah's); otherwise
 * the utility's state (the most-customers rule of utilities/reference.ts); null
 * for a utility EIA-861 does not know.
 */
export function tariffState(
  record: Pick<UrdbRecord, 'eiaid' | 'utility' | 'source' | 'sourceparent'>,
  ref: UtilityReference,
): string | null {
  const utility = ref.utilities.get(String(record.eiaid));
  if (!utility) return null;
  const served = (state: string | null): state is string =>
    state !== null && utility.statesServed.length > 1 && utility.statesServed.includes(state);
  const named = typeof record.utility === 'string' ? stateNamedIn(record.utility) : null;
  if (served(named)) return named;
  for (const address of [record.source, record.sourceparent]) {
    // only an address: some records cite a document instead ("Rate Binder #7 (Illinois State University)")
    const inAddress = typeof address === 'string' && /^(https?:\/\/|www\.)/i.test(address) ? stateNamedInAddress(address) : null;
    if (served(inAddress)) return inAddress;
  }
  return utility.state;
}

/**
 * Normalises bundled records (state by tariffState). A label seen twice is a skip, never a silent
 * overwrite. Then the revisions rule (revisions.ts) across the records read: a record a later
 * revision of its schedule supersedes names it and, without a published expiration date, expires
 * the day before that revision took effect.
 */
export function normalizeBundle(lines: RawLine[], ref: UtilityReference, importedAt: Date): NormalizedBundle {
  const result: NormalizedBundle = { recordsRead: lines.length, tariffs: [], skipped: [], warnings: [], supersessions: [] };
  const seen = new Set<string>();
  for (const { line, record, error } of lines) {
    if (!record) {
      result.skipped.push({ id: `line ${line}`, reason: error ?? 'unreadable' });
      continue;
    }
    const id = typeof record.label === 'string' ? record.label : `line ${line}`;
    if (seen.has(id)) {
      result.skipped.push({ id, reason: `duplicate label (line ${line})` });
      continue;
    }
    seen.add(id);
    // A merged utility's tariff is its successor's (utilities/successors.ts), for the predecessor's state; it is
    // classified as its publisher published it (as a custom tariff from the same record is).
    const successor = ref.successors?.get(String(record.eiaid));
    const merged = successor && ref.utilities.has(successor.successorId) ? successor : undefined;
    const state = merged ? merged.state : tariffState(record, ref);
    const name = ref.utilities.get(merged ? merged.successorId : String(record.eiaid))?.name ?? null;
    const r = normalizeUrdbRecord(record, { state, name, importedAt });
    if (!r.ok) {
      result.skipped.push({ id, reason: r.reason });
      continue;
    }
    // Who may take it says whose tariff it was: its rates are for the predecessor's former service area.
    result.tariffs.push(
      merged ? { ...r.tariff, utilityId: merged.successorId, eligibility: withPredecessorNote(r.tariff.eligibility, merged) } : r.tariff,
    );
    for (const warning of r.warnings) result.warnings.push({ id, warning });
    if (merged) {
      result.warnings.push({
        id,
        warning:
          `utility ${merged.predecessorId} (${merged.predecessorName}) merged into ${merged.successorId} ` +
          `(${merged.successorName}) on ${merged.effective}: the tariff is filed under the successor, for ${merged.state}`,
      });
    }
  }
  // Revisions are of one utility as URDB publishes it (a merged utility's schedules stay apart from its successor's).
  const publishedBy = new Map<string, string>();
  for (const { record } of lines) {
    if (record && typeof record.label === 'string' && !publishedBy.has(record.label)) publishedBy.set(record.label, String(record.eiaid));
  }
  const revised = applySupersessions(result.tariffs, (t) => publishedBy.get(t.id));
  result.tariffs = revised.tariffs;
  result.supersessions = revised.supersessions;
  return result;
}
