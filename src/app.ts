import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import cors from 'cors';
import { requestLog } from './platform/http/request-log';
import type { IncomingMessage } from 'node:http';
import type { PlatformDeps } from './context';
import { ApiRouter, createOpenApiRegistry } from './platform/http/router';
import { errorHandler, notFoundRoute } from './platform/http/errors';
import { documentSiteRoutes, healthRouter } from './modules/health/routes';
import { docsRouter } from './modules/docs/routes';
import { createServices, type Services } from './services';
import { registerRoutes, createGuards, siteRouters, registerSiteRoutes, rawBodyRoutes } from './routes';
import { corsWithoutOriginFastPath, precomputedHeaders } from './platform/http/static-headers';
import { chain } from './platform/http/chain';
import { methodNotAllowed } from './platform/http/method-not-allowed';

export const API_PREFIX = '/api/v1';

export interface BuiltApp {
  app: Express;
  services: Services;
  /** Stops background timers of the services (flushes pending writes). */
  close(): Promise<void>;
}

/** A request carries a body when it declares a length or a chunked transfer (as type-is decides). */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
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
  // line (the inbox is their log), which would cost more than the delivery itself. Mounted on
  // its exact path, so no other request walks its router.
  for (const { path, router } of rawBodyRoutes(deps, services)) app.all(path, router);

  // What every other request goes through, as one layer (see chain): its id and log line, helmet's
  // headers (they depend only on its options: computed once, set per request), CORS, and the body.
  // No upgrade-insecure-requests: it breaks /docs and Bull Board served over plain http on a LAN host.
  const securityHeaders = precomputedHeaders(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  const corsHeaders = corsWithoutOriginFastPath(cors({
    origin: config.corsOrigins ?? true,
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
  }));
  // 1 MB JSON bodies, except on routes that parse a larger one themselves (ApiRouter bodyLimit),
  // and small forms (the OAuth2 login). A request without a body skips both parsers.
  // `api` is built below; this runs per request, after createApp has returned.
  const jsonBody = express.json({ limit: '1mb' });
  const formBody = express.urlencoded({ extended: false, limit: '100kb' });
  const parseBody: RequestHandler = (req, res, next) => {
    if (!hasBody(req) || api.parsesOwnBody(req.path)) return next();
    jsonBody(req, res, (err?: unknown) => (err ? next(err) : formBody(req, res, next)));
  };
  app.use(chain([requestLog(logger, { enabled: config.nodeEnv !== 'test' }), securityHeaders, corsHeaders, parseBody]));

  const registry = createOpenApiRegistry();
  const guards = createGuards(deps, services);
  const api = new ApiRouter(API_PREFIX, registry, guards);
  registerRoutes(api, deps, services);
  const site = new ApiRouter('', registry, guards);
  registerSiteRoutes(site, services);
  documentSiteRoutes(registry);

  // The API first: nearly every request is one of its, and each router it has to pass costs.
  app.use(API_PREFIX, api.router);
  app.use(healthRouter(deps));
  for (const router of siteRouters(deps)) app.use(router);
  app.use(site.router);
  app.use(docsRouter(registry));
  app.use(methodNotAllowed(registry));
  app.use(notFoundRoute);
  app.use(errorHandler(logger));

  return { app, services, close: () => services.close() };
}
