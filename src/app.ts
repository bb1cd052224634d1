import express, { type Express } from 'express';
import helmet from 'helmet';
import cors from 'cors';
import compression from 'compression';
import { requestId, requestLog } from './platform/http/request-log';
import type { PlatformDeps } from './context';
import { ApiRouter, createOpenApiRegistry } from './platform/http/router';
import { errorHandler, notFoundRoute } from './platform/http/errors';
import { methodNotAllowed } from './platform/http/method-not-allowed';
import { documentSiteRoutes, healthRouter } from './modules/health/routes';
import { docsRouter } from './modules/docs/routes';
import { buildOpenApiDocument, type OpenApiDocument } from './modules/docs/document';
import { createServices, type Services } from './services';
import { registerRoutes, createGuards, siteRouters, registerSiteRoutes, rawBodyRoutes } from './routes';
import { QUEUE_BOARD_PATH } from './platform/queue/board';
import { idempotency } from './platform/http/idempotency';

const isQueueBoardPath = (path: string) => path === QUEUE_BOARD_PATH || path.startsWith(`${QUEUE_BOARD_PATH}/`);

export const API_PREFIX = '/api/v1';

export interface BuiltApp {
  app: Express;
  services: Services;
  /** Stops background timers of the services (flushes pending writes). */
  close(): Promise<void>;
  /** The OpenAPI document GET /openapi.json serves, built from the registered routes. */
  openApiDocument(): OpenApiDocument;
}

/** The HTTP app: everything comes in through deps. Bodies are parsed by each route (ApiRouter). */
export function createApp(deps: PlatformDeps): BuiltApp {
  const { config, logger } = deps;
  const services = createServices(deps);
  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);
  // Every request has an id (X-Request-Id), the one its error body names.
  app.use(requestId);
  // Signed webhooks first: their receiver reads the raw body itself, and a provider's
  // machine-to-machine deliveries need no browser headers, CORS or per-request log line (the
  // inbox is their log).
  for (const { path, router } of rawBodyRoutes(deps, services)) app.all(path, router);

  app.use(requestLog(logger, { enabled: config.nodeEnv !== 'test' }));
  // Gzip for clients that accept it, on every compressible answer over 1 KB (the package's defaults).
  app.use(compression());
  // No upgrade-insecure-requests: it breaks /docs and Bull Board served over plain http on a LAN host.
  app.use(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  // CORS only for the origins CORS_ORIGINS lists (none by default: a browser page of another origin
  // cannot read an answer), and never for the operators' queue board.
  if (config.corsOrigins) {
    const allowed = cors({
      origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
      exposedHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
    });
    app.use((req, res, next) => (isQueueBoardPath(req.path) ? next() : allowed(req, res, next)));
  }

  const registry = createOpenApiRegistry();
  const guards = createGuards(deps, services);
  // Every POST takes an Idempotency-Key (platform/http/idempotency.ts).
  const idempotent = (streamed: boolean) => idempotency({ store: services.idempotency, logger }, streamed);
  const api = new ApiRouter(API_PREFIX, registry, guards, idempotent);
  registerRoutes(api, deps, services);
  const site = new ApiRouter('', registry, guards, idempotent);
  registerSiteRoutes(site, services);
  documentSiteRoutes(registry);

  app.use(API_PREFIX, api.router);
  app.use(
    healthRouter(deps, services.limits, async () => ({
      ...(await services.tariffs.currency()),
      refresh_configured: services.tariffRefresh.configured(),
    })),
  );
  for (const router of siteRouters(deps)) app.use(router);
  app.use(site.router);
  app.use(docsRouter(registry));
  app.use(methodNotAllowed(registry));
  app.use(notFoundRoute);
  app.use(errorHandler(logger));

  return { app, services, close: () => services.close(), openApiDocument: () => buildOpenApiDocument(registry) };
}
