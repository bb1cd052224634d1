import { loadConfig } from './platform/config';
import { createLogger } from './platform/logger';
import { createJobQueue } from './platform/queue';
import { openDatabase } from './platform/db/client';
import { appQueues } from './queues';
import { createApp } from './app';
import type { OpenApiDocument } from './modules/docs/document';

/**
 * A PostgreSQL pool that is never connected: the services prepare their statements when built and
 * run them only when a request comes, so no connection is opened. Were one tried, port 1 refuses it.
 */
const NO_DATABASE_URL = 'postgres://openapi-document@127.0.0.1:1/none';
const DOCUMENT_ONLY_SECRET = 'openapi-document-only-0123456789abcdef';

/**
 * The service's OpenAPI document, built in this process from the route schemas as GET
 * /openapi.json serves it, without a server, a database or Redis. The environment is fixed here,
 * not read, so the document (and the client generated from it) is the same on every machine.
 */
export async function buildServiceOpenApiDocument(): Promise<OpenApiDocument> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', JWT_SECRET: DOCUMENT_ONLY_SECRET });
  const logger = createLogger(config.logLevel);
  const database = await openDatabase({ databaseUrl: NO_DATABASE_URL, poolSize: 1 });
  const queue = createJobQueue({ definitions: appQueues, logger });
  const built = createApp({ config, database, queue, logger, jwtSecret: DOCUMENT_ONLY_SECRET, now: () => new Date() });
  try {
    return built.openApiDocument();
  } finally {
    await built.close();
    await queue.close();
    await database.close();
  }
}
