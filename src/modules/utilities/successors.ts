import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

/**
 * Merged and renamed utilities (data/reference/README.md, "Merged and renamed utilities"): an EIA
 * utility id that URDB or a ZIP table still uses although the utility was merged into another,
 * with the surviving utility's id and the source that says so (EIA-861 Mergers files, SEC filings,
 * regulators' orders). The importer files the predecessor's ZIP codes and tariffs under the
 * successor and keeps no utility record of the predecessor's own.
 */
export const SUCCESSORS_FILE = 'utility_successors.csv';

export interface UtilitySuccessor {
  predecessorId: string;
  predecessorName: string;
  successorId: string;
  successorName: string;
  /** The state of the predecessor's customers (its tariffs are for that state). */
  state: string;
  /** YYYY-MM-DD: the merger's effective date. */
  effective: string;
  source: string;
}

/** The successor list by predecessor id; an empty map when the folder has no list. */
export function loadSuccessors(dir: string): Map<string, UtilitySuccessor> {
  const file = path.join(dir, SUCCESSORS_FILE);
  const out = new Map<string, UtilitySuccessor>();
  if (!fs.existsSync(file)) return out;
  const rows = parse(fs.readFileSync(file, 'utf8'), { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
  for (const r of rows) {
    const s: UtilitySuccessor = {
      predecessorId: r.predecessor_id!.trim(),
      predecessorName: r.predecessor_name!.trim(),
      successorId: r.successor_id!.trim(),
      successorName: r.successor_name!.trim(),
      state: r.state!.trim(),
      effective: r.effective!.trim(),
      source: r.source!.trim(),
    };
    if (out.has(s.predecessorId)) throw new Error(`${SUCCESSORS_FILE}: utility ${s.predecessorId} is listed twice`);
    out.set(s.predecessorId, s);
  }
  // A successor is today's utility: it is never itself a predecessor (no chains to follow).
  for (const s of out.values()) {
    if (out.has(s.successorId))
      throw new Error(`${SUCCESSORS_FILE}: successor ${s.successorId} of ${s.predecessorId} is itself listed as merged`);
  }
  return out;
}

/** The id a utility goes by today: its successor's when it was merged, else its own. */
export function currentUtilityId(successors: ReadonlyMap<string, UtilitySuccessor> | undefined, id: string): string {
  return successors?.get(id)?.successorId ?? id;
}

const NOTE = /Filed by (.+) \(EIA (\d+)\) before it merged into (.+) on (\d{4}-\d\d-\d\d): for customers of its former service area\./;

/** A tariff's eligibility text with the sentence that says which merged utility filed it. */
export function withPredecessorNote(eligibility: string, s: UtilitySuccessor): string {
  const note =
    `Filed by ${s.predecessorName} (EIA ${s.predecessorId}) before it merged into ${s.successorName} on ${s.effective}: ` +
    'for customers of its former service area.';
  return eligibility ? `${eligibility} ${note}` : note;
}

/** The merged utility that filed a tariff, read back from its eligibility text (withPredecessorNote); null for most tariffs. */
export function filedByPredecessor(
  eligibility: string | null | undefined,
): { name: string; id: string; successorName: string; effective: string } | null {
  const m = NOTE.exec(eligibility ?? '');
  return m ? { name: m[1]!, id: m[2]!, successorName: m[3]!, effective: m[4]! } : null;
}
