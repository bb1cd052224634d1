/**
 * The work of `npm run data:refresh` (scripts/refresh-data.ts) on built services: records (or resumes)
 * a run, runs it here printing each page, prints the report. The run's `tariffsChanged` is the
 * services' own (src/services.ts), the admin endpoint's: a run that changed tariffs queues the
 * re-analysis of every owner's properties (with the notification of changed advice), their analytics
 * and the audit of their bills.
 */
import type { Services } from '../src/services';
import type { RefreshScope } from '../src/modules/tariffs/refresh/service';

export type RefreshArgs = RefreshScope & { resume?: string | true };

export function parseRefreshArgs(argv: string[]): RefreshArgs {
  const out: RefreshArgs = {};
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

/** Runs the command; the exit code (1 when the run failed and can be resumed). */
export async function refreshCommand(
  services: Pick<Services, 'tariffRefresh'>,
  args: RefreshArgs,
  out: { write(s: string): unknown },
  apiUrl: string,
): Promise<number> {
  const refresh = services.tariffRefresh;
  let runId: string;
  if (args.resume !== undefined) {
    const run = args.resume === true ? await refresh.unfinished() : await refresh.get(args.resume);
    if (!run) {
      out.write('no unfinished refresh run to resume\n');
      return 0;
    }
    runId = run.id;
    out.write(`resuming ${run.id}: ${run.utilities_done} of ${run.utilities.length} utilities done\n`);
  } else {
    const run = await refresh.create(args);
    runId = run.id;
    out.write(`run ${run.id}: ${run.utilities.length} utilities (${apiUrl})\n`);
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
    return 1;
  }
  return 0;
}
