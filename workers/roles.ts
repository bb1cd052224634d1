import http from 'node:http';
import net from 'node:net';
import { loadConfig, ConfigError } from '../src/platform/config';
import { bootPlatform } from '../src/platform/bootstrap';
import { createApp } from '../src/app';
import { createServices, type Services } from '../src/services';
import { queuePrefix, startWorkers } from '../src/platform/queue';
import { appQueues } from '../src/queues';
import { startScheduler } from '../src/platform/scheduler';
import { redisOutageAnnounced } from '../src/platform/redis';
import { deploymentSchedules } from '../src/schedules';
import { createProcessors } from '../jobs';
import { closeHttpServer, onShutdown } from './shutdown';
import { ensureReferenceData } from '../src/modules/tariffs/importer';
import { listenStartupError, redisStartupProblem, StartupError } from '../src/platform/startup-error';

export interface Roles {
  /** The HTTP API. */
  web?: boolean;
  /** BullMQ workers for every queue (with REDIS_URL; without it jobs always run in-process). */
  worker?: boolean;
  /** Cron ticks that enqueue. */
  scheduler?: boolean;
  /**
   * For the separate worker/scheduler processes: they share jobs with web through Redis and
   * data through PostgreSQL (an embedded PGlite directory belongs to one process).
   */
  separateProcess?: boolean;
}

/**
 * Starts the given roles in this process and stops them gracefully on SIGTERM/SIGINT:
 * no new ticks, no new requests (in-flight ones finish), running jobs finish, then pools close.
 * Without REDIS_URL the queue runs jobs in-process, through the same processors, in any role.
 */
export async function startRoles(roles: Roles): Promise<void> {
  const config = loadConfig();
  if (roles.separateProcess && (!config.redisUrl || !config.databaseUrl)) {
    throw new ConfigError(
      'This process needs REDIS_URL and DATABASE_URL (it shares jobs and data with the web process). ' +
        'Without them, run `npm start`: web, jobs and scheduler in one process.',
    );
  }
  // A busy port is found before the database opens and the first start's import runs (minutes).
  if (roles.web) await checkPortFree(config.port);
  // Redis down: a worker or scheduler process has nothing to do without it and stops, saying so; the
  // web process serves on, degraded (rate limits, quotas and queueing skip Redis until it answers).
  const redisProblem = config.redisUrl ? await redisStartupProblem(config.redisUrl) : undefined;
  if (redisProblem && roles.separateProcess) throw new StartupError(redisProblem);
  // The warning below reports the outage: the clients' failures are the same one, and the next line is the one saying it is back.
  if (redisProblem) redisOutageAnnounced(config.redisUrl!);
  let jobServices: Services | undefined;
  const processors = () => {
    if (!jobServices) throw new Error('A job ran before the services were built');
    return createProcessors(jobServices);
  };
  const deps = await bootPlatform({ config, processors });
  const { logger } = deps;
  if (redisProblem) logger.warn(`${redisProblem} Until it answers, this process serves degraded (GET /health says so).`);
  // First start: load the bundled tariff, utility and ZIP data before serving.
  if (roles.web) await ensureReferenceData(deps.database.db, logger);
  const stops: Array<() => Promise<void>> = [];

  let server: http.Server | undefined;
  let closeServices = async () => {};
  if (roles.web) {
    const built = createApp(deps);
    jobServices = built.services;
    closeServices = () => built.services.close();
    server = http.createServer(built.app);
    // Keep-alive longer than typical load-balancer idle timeouts.
    server.keepAliveTimeout = 65_000;
    await listen(server, config.port);
    const { port } = server.address() as net.AddressInfo;
    const url = `http://localhost:${port}`;
    logger.info({ port, url, database: deps.database.kind, queue: deps.queue.driver }, `ready: ${url} (API reference at ${url}/docs)`);
    // Build the tariff search catalog in the background, so the first search does not wait for it.
    built.services.tariffs.warm().catch((err: unknown) => logger.error({ err }, 'tariff catalog warm-up failed'));
  } else if (roles.worker) {
    const services = createServices(deps);
    jobServices = services;
    closeServices = () => services.close();
  }

  if (roles.scheduler) {
    const scheduler = startScheduler({ queue: deps.queue, schedules: deploymentSchedules(config), logger });
    stops.push(() => scheduler.stop());
  }
  if (server) {
    const s = server;
    stops.push(() => closeHttpServer(s));
  }
  if (roles.worker && config.redisUrl) {
    const closeWorkers = startWorkers({
      definitions: appQueues,
      redisUrl: config.redisUrl,
      prefix: queuePrefix(config.redisKeyPrefix),
      processors: processors(),
      logger,
    });
    logger.info({ queues: Object.keys(appQueues) }, 'workers started');
    stops.push(closeWorkers);
  }
  stops.push(
    () => deps.queue.close(),
    closeServices,
    () => deps.database.close(),
  );
  onShutdown(logger, stops);
}

/** Listens on `port`; a port that cannot be had rejects with the StartupError that says so. */
function listen(server: http.Server | net.Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (err: unknown) => reject(listenStartupError(err, port));
    server.once('error', onError);
    server.listen(port, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** Rejects with a StartupError when `port` cannot be listened on now (another process has it). */
async function checkPortFree(port: number): Promise<void> {
  if (port === 0) return;
  const probe = net.createServer();
  await listen(probe, port);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}
