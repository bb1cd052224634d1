/**
 * `npm run data:import`: replaces the tariff, utility and ZIP tables with the
 * bundled reference data (data/reference) in one transaction, then prints the
 * report: records read, imported, skipped with the reason per record, the
 * rules applied to upstream quirks, and the records a later revision supersedes.
 */
import { loadConfig } from '../src/platform/config';
import { openMigratedDatabase } from '../src/platform/bootstrap';
import { importReferenceData } from '../src/modules/tariffs/importer';

async function main() {
  const database = await openMigratedDatabase(loadConfig());
  try {
    const report = await importReferenceData(database.db);
    const out = process.stdout;
    out.write(`records read:  ${report.recordsRead}\n`);
    out.write(`imported:      ${report.imported}\n`);
    out.write(`skipped:       ${report.skipped.length}\n`);
    for (const s of report.skipped) out.write(`  skip ${s.id}: ${s.reason}\n`);
    out.write(`quirk rules applied: ${report.warnings.length}\n`);
    for (const w of report.warnings) out.write(`  ${w.id}: ${w.warning}\n`);
    const expiring = report.supersessions.filter((a) => a.expirationDate !== null).length;
    out.write(`superseded by a later revision: ${report.supersessions.length} (${expiring} given an expiration date)\n`);
    for (const a of report.supersessions) {
      out.write(`  ${a.id} superseded by ${a.supersededBy} (${a.rule})${a.expirationDate ? `, expires ${a.expirationDate}` : ''}\n`);
    }
    out.write(
      `utilities:     ${report.utilities} (${report.utilitiesFromUrdbOnly.length} known only from URDB: ${report.utilitiesFromUrdbOnly.join(', ')})\n`,
    );
    out.write(
      `ZIP pairs:     ${report.zipPairs} (${Object.entries(report.coverage.pairsBySource)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ')})\n`,
    );
    const { zipCodes, pairs, gainedSample, lostSample } = report.coverage;
    out.write('coverage against the data replaced:\n');
    out.write(`  ZIP codes with a utility: ${zipCodes.before} -> ${zipCodes.after} (${zipCodes.gained} gained, ${zipCodes.lost} lost)\n`);
    out.write(`  ZIP-utility pairs:        ${pairs.before} -> ${pairs.after} (${pairs.added} added, ${pairs.removed} removed)\n`);
    if (gainedSample.length) out.write(`  gained, e.g.: ${gainedSample.join(', ')}\n`);
    if (lostSample.length) out.write(`  lost, e.g.:   ${lostSample.join(', ')}\n`);
    out.write(`duration:      ${(report.durationMs / 1000).toFixed(1)} s\n`);
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`import failed, previous data left intact: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
