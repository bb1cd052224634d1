import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { loadConfig } from '../../src/platform/config';
import { createLogger } from '../../src/platform/logger';
import { openDatabase, type Database } from '../../src/platform/db/client';
import { createJobQueue, queuePrefix, startWorkers } from '../../src/platform/queue';
import { appQueues, type AppQueues } from '../../src/queues';
import { createApp, type BuiltApp } from '../../src/app';
import type { PlatformDeps } from '../../src/context';
import type { JobContext, Processor, Processors } from '../../src/platform/queue/types';
import { templatePath } from './template';
import { createPgDatabase } from './pg-database';
import { createProcessors } from '../../jobs';

export const TEST_JWT_SECRET = 'test-secret-0123456789-abcdefghijklmnop';

/**
 * A fresh database for one test file: PGlite from the migrated template, or,
 * when DATABASE_URL is set, a new PostgreSQL database created and migrated for
 * this file and dropped by close().
 */
export async function createTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const template = new Blob([fs.readFileSync(templatePath())]);
    return openDatabase({ pgliteTemplate: template });
  }
  const name = `t_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
  const created = await createPgDatabase(url, name);
  const database = await openDatabase({ databaseUrl: created.url, poolSize: 5 });
  await database.migrate();
  const close = database.close;
  database.close = async () => {
    await close();
    await created.drop();
  };
  return database;
}

export interface TestAppOptions {
  /** Extra environment, as the service would read it (e.g. { ADMIN_TOKEN: '...' }). */
  env?: Record<string, string>;
  /** Override the clock. */
  now?: () => Date;
  /** Processors for the in-process queue driver. */
  processors?: () => Processors<AppQueues>;
  /** Run queued jobs with the service's real processors (jobs/), bound to this app's services. */
  jobs?: boolean;
}

export interface TestApp extends BuiltApp {
  deps: PlatformDeps;
  /** Closes the app, queue and database (drops the PostgreSQL test database). */
  stop(): Promise<void>;
}

/** Processors looked up when a job runs, so a test may build them from the app's services after boot. */
function lazyProcessors(get: () => Processors<AppQueues>): Processors<AppQueues> {
  const entries = Object.keys(appQueues).map((name) => [
    name,
    (payload: unknown, ctx: JobContext) => (get() as Record<string, Processor<never>>)[name](payload as never, ctx),
  ]);
  return Object.fromEntries(entries) as Processors<AppQueues>;
}

/** Boots the whole app in-process on a fresh database, as the web process would. */
export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'energy-api-test-')),
    DATABASE_URL: process.env.DATABASE_URL,
    REDIS_URL: process.env.REDIS_URL,
    // Own Redis counters per app, so parallel test files (and reruns) never share rate-limit or quota counts.
    REDIS_KEY_PREFIX: `test:${crypto.randomBytes(6).toString('hex')}:`,
    // Many users are registered from one IP per file; tests of these limits pass small values in `env`.
    RATE_LIMIT_REGISTER_PER_MIN: '10000',
    RATE_LIMIT_LOGIN_PER_MIN: '10000',
    ...opts.env,
  });
  const logger = createLogger(config.logLevel);
  const database = await createTestDatabase();
  const prefix = queuePrefix(config.redisKeyPrefix);
  // Resolved when a job runs: the services exist only once the app below is built.
  const holder: { app?: BuiltApp } = {};
  const processors = opts.processors ?? (opts.jobs ? () => createProcessors(holder.app!.services) : undefined);
  const queue = createJobQueue({ definitions: appQueues, redisUrl: config.redisUrl, prefix, logger, processors });
  const deps: PlatformDeps = {
    config,
    database,
    queue,
    logger,
    jwtSecret: TEST_JWT_SECRET,
    now: opts.now ?? (() => new Date()),
  };
  const app = createApp(deps);
  holder.app = app;
  // With REDIS_URL the jobs go to BullMQ: run them in this process, as the worker process would.
  const stopWorkers =
    config.redisUrl && processors
      ? startWorkers({
          definitions: appQueues,
          redisUrl: config.redisUrl,
          prefix,
          processors: lazyProcessors(processors),
          logger,
          orderingPollMs: 50,
        })
      : async () => undefined;
  return {
    ...app,
    deps,
    stop: async () => {
      await stopWorkers();
      await app.close();
      await queue.close();
      await database.close();
    },
  };
}
