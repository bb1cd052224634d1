/**
 * `npm run data:refresh [-- --eia=14328,4176 | --all | --resume[=<run id>]]`: refreshes catalog tariffs
 * from NREL's OpenEI utility_rates API (URDB_API_KEY, URDB_API_URL) in this process, printing each page
 * and the report at the end (tariffs README, "Refresh from the URDB API"). Without a flag, the
 * utilities the deployment's properties, meters and ZIP codes (theirs and due diligence's) use. A run
 * stopped by a crash or by the API failing goes on from where it stopped with --resume (the newest
 * unfinished run) or --resume=<id>.
 *
 * What depends on tariffs is recomputed as after POST /admin/tariffs/refresh, by the same services
 * (refresh-command.ts): with REDIS_URL the jobs are queued for the workers; without it they run here,
 * in-process, and the command waits for them before it exits.
 */
import { loadConfig } from '../src/platform/config';
import { bootPlatform } from '../src/platform/bootstrap';
import { createServices, type Services } from '../src/services';
import { createProcessors } from '../jobs';
import { parseRefreshArgs, refreshCommand } from './refresh-command';

async function main() {
  const args = parseRefreshArgs(process.argv.slice(2));
  const config = loadConfig();
  const out = process.stdout;
  if (!config.urdb.apiKey) {
    out.write('URDB_API_KEY is not set: nothing fetched, nothing changed. A free key: https://developer.nrel.gov/signup/\n');
    return;
  }
  const built: { services?: Services } = {};
  const deps = await bootPlatform({
    config: { ...config, logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel },
    processors: () => {
      if (!built.services) throw new Error('A job ran before the services were built');
      return createProcessors(built.services);
    },
  });
  const services = (built.services = createServices(deps));
  try {
    process.exitCode = await refreshCommand(services, args, out, config.urdb.apiUrl);
    if (deps.queue.driver === 'inprocess') {
      out.write('recomputing what depends on the tariffs (rate analyses, audits, analytics)...\n');
      await deps.queue.drain();
      const failed = deps.queue.failedJobs();
      out.write(failed.length ? `done; ${failed.length} jobs failed (see the log)\n` : 'done\n');
    } else {
      out.write('rate analyses, audits and analytics are queued for the workers\n');
    }
  } finally {
    await deps.queue.close();
    await services.close();
    await deps.database.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`refresh failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
