/** ZIP-to-utility pairs as the importer reads or stores them. */
export interface CoveragePair {
  zipCode: string;
  utilityId: string;
  source: string;
}

/** What a re-import changed in which ZIP codes the service knows a utility for. */
export interface CoverageChange {
  zipCodes: { before: number; after: number; gained: number; lost: number };
  pairs: { before: number; after: number; added: number; removed: number };
  /** Pairs per source table after the import (`non_iou_2023`, `iou_2011`). */
  pairsBySource: Record<string, number>;
  /** Up to `sampleSize` ZIP codes, ascending, that gained or lost every utility. */
  gainedSample: string[];
  lostSample: string[];
}

const key = (p: CoveragePair) => `${p.zipCode}|${p.utilityId}`;

/** Pure: compares the ZIP pairs before and after an import. */
export function coverageChange(before: readonly CoveragePair[], after: readonly CoveragePair[], sampleSize = 10): CoverageChange {
  const beforeKeys = new Set(before.map(key));
  const afterKeys = new Set(after.map(key));
  let added = 0;
  for (const k of afterKeys) if (!beforeKeys.has(k)) added++;
  let removed = 0;
  for (const k of beforeKeys) if (!afterKeys.has(k)) removed++;
  const zipsBefore = new Set(before.map((p) => p.zipCode));
  const zipsAfter = new Set(after.map((p) => p.zipCode));
  const gained = [...zipsAfter].filter((z) => !zipsBefore.has(z)).sort();
  const lost = [...zipsBefore].filter((z) => !zipsAfter.has(z)).sort();
  const pairsBySource: Record<string, number> = {};
  for (const p of after) pairsBySource[p.source] = (pairsBySource[p.source] ?? 0) + 1;
  return {
    zipCodes: { before: zipsBefore.size, after: zipsAfter.size, gained: gained.length, lost: lost.length },
    pairs: { before: beforeKeys.size, after: afterKeys.size, added, removed },
    pairsBySource,
    gainedSample: gained.slice(0, sampleSize),
    lostSample: lost.slice(0, sampleSize),
  };
}
