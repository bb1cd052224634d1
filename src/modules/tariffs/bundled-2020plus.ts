import fs from 'node:fs';
import path from 'node:path';
import { urdbLinesOf, type RawLine } from './bundled';

/**
 * URDB records that took effect 2021-2025, none of them in `urdb_tariffs.jsonl.gz`: plain JSONL,
 * one URDB API v7/v8 record per line. Which records of the source file were kept, and why the
 * others were not, is in `urdb_tariffs_2020plus.md` next to it; provenance in
 * `urdb_tariffs_2020plus_provenance.csv`.
 */
export const URDB_2020PLUS_FILE = 'urdb_tariffs_2020plus.jsonl';

/**
 * The records of URDB_2020PLUS_FILE, one per non-blank line, as readUrdbLines reads the main
 * bundle: `line` is the 1-based line number *in this file* (so it can repeat a line number of
 * the main file), and a line that is not a JSON object is returned with `record: null` and the
 * reason in `error`.
 */
export function readUrdb2020PlusLines(dir: string): RawLine[] {
  return urdbLinesOf(fs.readFileSync(path.join(dir, URDB_2020PLUS_FILE), 'utf8'), `${URDB_2020PLUS_FILE} `);
}
