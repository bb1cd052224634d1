import path from 'node:path';
import { loadConfig, type Config } from './config';
import { createLogger } from './logger';
import { openDatabase } from './db/client';
import { createJobQueue, queuePrefix } from './queue';
import { appQueues } from './queue/registry';
import { resolveJwtSecret } from './secrets';
import type { PlatformDeps } from '../context';
import type { Processors } from './queue/types';
import type { AppQueues } from './queue/registry';

export interface BootOptions {
  config?: Readonly<Config>;
  /** Processors for the in-process queue driver (the single-process default). */
  processors?: () => Processors<AppQueues>;
}

/** Builds the platform deps of a process: config, logger, migrated database, queue, secrets. */
export async function bootPlatform(opts: BootOptions = {}): Promise<PlatformDeps> {
  const config = opts.config ?? loadConfig();
  const logger = createLogger(config.logLevel);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.databaseUrl ? undefined : path.join(config.dataDir, 'pglite'),
  });
  await database.migrate();
  const queue = createJobQueue({
    definitions: appQueues,
    redisUrl: config.redisUrl,
    prefix: queuePrefix(config.redisKeyPrefix),
    logger,
    processors: opts.processors,
  });
  return {
    config,
    database,
    queue,
    logger,
    jwtSecret: resolveJwtSecret(config.jwtSecret, config.dataDir),
    now: () => new Date(),
  };
}
