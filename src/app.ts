import crypto from 'node:crypto';
import express, { type Express } from 'express';
import helmet from 'helmet';
import cors from 'cors';
import { pinoHttp } from 'pino-http';
import type { PlatformDeps } from './context';
import { ApiRouter, createOpenApiRegistry } from './platform/http/router';
import { errorHandler, notFoundRoute } from './platform/http/errors';
import { documentSiteRoutes, healthRouter } from './modules/health/routes';
import { docsRouter } from './modules/docs/routes';
import { createServices, type Services } from './services';
import { registerRoutes, createGuards, siteRouters, registerSiteRoutes, rawBodyRouters } from './routes';

export const API_PREFIX = '/api/v1';

export interface BuiltApp {
  app: Express;
  services: Services;
  /** Stops background timers of the services (flushes pending writes). */
  close(): Promise<void>;
}

/** Composition root of the HTTP process: everything comes in through deps. */
export function createApp(deps: PlatformDeps): BuiltApp {
  const { config, logger } = deps;
  const services = createServices(deps);
  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);
  // Signed webhooks first: their receiver reads the raw body itself (before any parser), and a
  // provider's machine-to-machine deliveries need no browser headers, CORS or per-request log
  // line (the inbox is their log), which would cost more than the delivery itself.
  for (const router of rawBodyRouters(deps, services)) app.use(router);

  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && /^[\w.-]{1,128}$/.test(incoming) ? incoming : crypto.randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      autoLogging: config.nodeEnv !== 'test',
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  // No upgrade-insecure-requests: it breaks /docs and Bull Board served over plain http on a LAN host.
  app.use(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  app.use(cors({ origin: config.corsOrigins ?? true, exposedHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] }));
  // 1 MB JSON bodies, except on routes that parse a larger one themselves (ApiRouter bodyLimit).
  // `api` is built below; this runs per request, after createApp has returned.
  const jsonBody = express.json({ limit: '1mb' });
  app.use((req, res, next) => (api.parsesOwnBody(req.path) ? next() : jsonBody(req, res, next)));
  app.use(express.urlencoded({ extended: false, limit: '100kb' }));

  const registry = createOpenApiRegistry();
  const guards = createGuards(deps, services);
  const api = new ApiRouter(API_PREFIX, registry, guards);
  registerRoutes(api, deps, services);
  const site = new ApiRouter('', registry, guards);
  registerSiteRoutes(site, services);
  documentSiteRoutes(registry);

  app.use(healthRouter(deps));
  for (const router of siteRouters(deps)) app.use(router);
  app.use(site.router);
  app.use(API_PREFIX, api.router);
  app.use(docsRouter(registry));
  app.use(notFoundRoute);
  app.use(errorHandler(logger));

  return { app, services, close: () => services.close() };
}
