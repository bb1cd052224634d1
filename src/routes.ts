import type { Router } from 'express';
import type { PlatformDeps } from './context';
import type { Services } from './services';
import type { ApiRouter, RouteGuards } from './platform/http/router';
import { unauthorized } from './platform/http/errors';

/** Authentication (and quota) middleware per auth mode. */
export function createGuards(_deps: PlatformDeps, _services: Services): RouteGuards {
  return {
    none: [],
    optional: [],
    required: [() => { throw unauthorized(); }],
  };
}

/** Every /api/v1 endpoint, feature by feature. */
export function registerRoutes(_api: ApiRouter, _deps: PlatformDeps, _services: Services): void {}

/** Routers mounted at the site root (outside /api/v1): webhooks, Bull Board. */
export function siteRouters(_deps: PlatformDeps, _services: Services): Router[] {
  return [];
}
