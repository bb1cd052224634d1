import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Tariff } from './tariff.model';
import type { UrdbRecord } from './urdb.record';
import { normalizeUrdbRecord } from './urdb.normalize';
import type { UtilityReference } from '../utilities/reference';
import { stateNamedIn } from '../utilities/state-names';

export const URDB_FILE = 'urdb_tariffs.jsonl.gz';

export interface RawLine {
  line: number;
  record: UrdbRecord | null;
  /** Why the line could not be read as a record. */
  error?: string;
}

/** The URDB records of the bundled file, one per line; `labels` keeps only those. */
export function readUrdbLines(dir: string, labels?: ReadonlySet<string>): RawLine[] {
  const textData = zlib.gunzipSync(fs.readFileSync(path.join(dir, URDB_FILE))).toString('utf8');
  const out: RawLine[] = [];
  textData.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    // Cheap pre-filter so tests reading a handful of records skip parsing the other 13,000.
    if (labels && ![...labels].some((label) => l.includes(label))) return;
    try {
      const record = JSON.parse(l) as UrdbRecord;
      if (record === null || typeof record !== 'object') throw new Error('not an object');
      if (labels && !labels.has(record.label)) return;
      out.push({ line: i + 1, record });
    } catch (err) {
      out.push({ line: i + 1, record: null, error: `line ${i + 1} is not a JSON object (${(err as Error).message})` });
    }
  });
  return out;
}

export interface NormalizedBundle {
  recordsRead: number;
  tariffs: Tariff[];
  skipped: Array<{ id: string; reason: string }>;
  warnings: Array<{ id: string; warning: string }>;
}

/**
 * A tariff's state: when its utility serves several states in EIA-861 and the
 * URDB utility name ends with one of them in parentheses ("PacifiCorp
 * (Oregon)"), that state; otherwise the utility's state (the most-customers
 * rule of utilities/reference.ts); null for a utility EIA-861 does not know.
 */
export function tariffState(record: Pick<UrdbRecord, 'eiaid' | 'utility'>, ref: UtilityReference): string | null {
  const utility = ref.utilities.get(String(record.eiaid));
  if (!utility) return null;
  const named = typeof record.utility === 'string' ? stateNamedIn(record.utility) : null;
  if (named && utility.statesServed.length > 1 && utility.statesServed.includes(named)) return named;
  return utility.state;
}

/**
 * Normalises bundled records (state by tariffState). A label seen twice is a skip, never a silent
 * overwrite.
 */
export function normalizeBundle(lines: RawLine[], ref: UtilityReference, importedAt: Date): NormalizedBundle {
  const result: NormalizedBundle = { recordsRead: lines.length, tariffs: [], skipped: [], warnings: [] };
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
    const state = tariffState(record, ref);
    const name = ref.utilities.get(String(record.eiaid))?.name ?? null;
    const r = normalizeUrdbRecord(record, { state, name, importedAt });
    if (!r.ok) {
      result.skipped.push({ id, reason: r.reason });
      continue;
    }
    result.tariffs.push(r.tariff);
    for (const warning of r.warnings) result.warnings.push({ id, warning });
  }
  return result;
}
