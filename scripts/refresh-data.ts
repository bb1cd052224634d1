/**
 * `npm run data:refresh [-- --eia=14328,4176 | --all | --resume[=<run id>]]`: refreshes catalog tariffs
 * from NREL's OpenEI utility_rates API (URDB_API_KEY, URDB_API_URL) in this process, printing each page
 * and the report at the end (tariffs README, "Refresh from the URDB API"). Without a flag, the
 * utilities the deployment's properties, meters and their ZIP codes use. A run stopped by a crash or
 * by the API failing goes on from where it stopped with --resume (the newest unfinished run) or
 * --resume=<id>. Properties are re-analysed on the new tariffs by the scheduler's tariff-import sweep.
 */
import { loadConfig } from '../src/platform/config';
import { openMigratedDatabase } from '../src/platform/bootstrap';
import { createLogger } from '../src/platform/logger';
import { readSystemState, writeSystemState } from '../src/platform/db/system-state';
import { REFERENCE_IMPORT_KEY } from '../src/modules/tariffs/importer';
import { createTariffRefreshService, type RefreshScope } from '../src/modules/tariffs/refresh/service';

function parseArgs(argv: string[]): RefreshScope & { resume?: string | true } {
  const out: RefreshScope & { resume?: string | true } = {};
  for (const arg of argv) {
    const [flag, value] = arg.split('=', 2) as [string, string | undefined];
    if (flag === '--all') out.all = true;
    else if (flag === '--eia' && value)
      out.eia = value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (flag === '--resume') out.resume = value ?? true;
    else throw new Error(`unknown argument ${arg}: use --eia=<id,id,...>, --all or --resume[=<run id>]`);
  }
  return out;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  const out = process.stdout;
  if (!config.urdb.apiKey) {
    out.write('URDB_API_KEY is not set: nothing fetched, nothing changed. A free key: https://developer.nrel.gov/signup/\n');
    return;
  }
  const database = await openMigratedDatabase(config);
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  try {
    const db = database.db;
    const refresh = createTariffRefreshService({
      db,
      now: () => new Date(),
      logger,
      urdb: config.urdb,
      // The scheduler's tariff-import sweep re-analyses every owner's properties when the import stamp moves.
      tariffsChanged: async () => {
        const stamp = await readSystemState(db, REFERENCE_IMPORT_KEY);
        if (stamp) await writeSystemState(db, REFERENCE_IMPORT_KEY, stamp.value, new Date());
      },
    });
    let runId: string;
    if (args.resume !== undefined) {
      const run = args.resume === true ? await refresh.unfinished() : await refresh.get(args.resume);
      if (!run) {
        out.write('no unfinished refresh run to resume\n');
        return;
      }
      runId = run.id;
      out.write(`resuming ${run.id}: ${run.utilities_done} of ${run.utilities.length} utilities done\n`);
    } else {
      const run = await refresh.create(args);
      runId = run.id;
      out.write(`run ${run.id}: ${run.utilities.length} utilities (${config.urdb.apiUrl})\n`);
    }
    const run = await refresh.run(runId, (p) => {
      out.write(`  [${p.index}/${p.of}] EIA ${p.eiaId}: ${p.records} records from offset ${p.offset}\n`);
    });
    const r = run.report;
    out.write(`status:     ${run.status}${run.error ? ` (${run.error})` : ''}\n`);
    out.write(`fetched:    ${r.fetched}\n`);
    out.write(`new:        ${r.new.length}${r.new.length ? ` (${r.new.join(', ')})` : ''}\n`);
    out.write(`changed:    ${r.changed.length}${r.changed.length ? ` (${r.changed.join(', ')})` : ''}\n`);
    out.write(`unchanged:  ${r.unchanged}\n`);
    out.write(`superseded: ${r.superseded.length}\n`);
    for (const s of r.superseded)
      out.write(`  ${s.id} superseded by ${s.superseded_by}${s.expiration_date ? `, ends ${s.expiration_date}` : ''}\n`);
    out.write(`ended:      ${r.ended.length}\n`);
    for (const e of r.ended) out.write(`  ${e.id} ends ${e.expiration_date}\n`);
    out.write(`rejected:   ${r.rejected.length}\n`);
    for (const x of r.rejected) out.write(`  ${x.id} (EIA ${x.eia_id}): ${x.reason}\n`);
    if (run.status === 'failed') {
      out.write(`resume with: npm run data:refresh -- --resume=${run.id}\n`);
      process.exitCode = 1;
    }
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`refresh failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
