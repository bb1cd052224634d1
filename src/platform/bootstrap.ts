import path from 'node:path';
import { loadConfig, type Config } from './config';
import { createLogger } from './logger';
import { openDatabase, type Database } from './db/client';
import { exitOnLostLock, type LockEvents } from './db/data-dir-lock';
import { createJobQueue, queuePrefix } from './queue';
import { appQueues } from '../queues';
import { resolveJwtSecret } from './secrets';
import { databaseStartupError } from './startup-error';
import type { PlatformDeps } from '../context';
import type { Processors } from './queue/types';
import type { AppQueues } from '../queues';

export interface BootOptions {
  config?: Readonly<Config>;
  /** Processors for the in-process queue driver (the single-process default). */
  processors?: () => Processors<AppQueues>;
}

/**
 * The configured database (Postgres, or embedded PGlite under the data dir), migrated.
 * Closed again if migrating fails, so a caller never holds a half-ready database.
 */
export async function openMigratedDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  dataDirLockEvents?: LockEvents,
): Promise<Database> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.databaseUrl ? undefined : path.join(config.dataDir, 'pglite'),
    dataDirLockEvents,
  });
  try {
    await database.migrate();
  } catch (err) {
    await database.close();
    // The first statement runs here: a server that does not answer is a setting to fix, said in one line.
    throw config.databaseUrl ? databaseStartupError(err, config.databaseUrl) : err;
  }
  return database;
}

/** Builds the platform deps of a process: config, logger, migrated database, queue, secrets. */
export async function bootPlatform(opts: BootOptions = {}): Promise<PlatformDeps> {
  const config = opts.config ?? loadConfig();
  const logger = createLogger(config.logLevel);
  const database = await openMigratedDatabase(config, {
    onRestored: (lockFile) => logger.warn({ lockFile }, 'the embedded database lock file was deleted while this process held it; put back'),
    // Another process has the folder: stop at once (no graceful drain, whose requests would write to it).
    onLost: (err) => {
      logger.fatal({ lockFile: err.lockFile, holder: err.holder }, err.message);
      exitOnLostLock(err);
    },
  });
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
