import type { PlatformDeps } from './context';

/**
 * Every feature service, built once per process from the platform deps.
 * Routes (src/routes.ts) and job processors (jobs/) call these same objects.
 */
export interface Services {
  close(): Promise<void>;
}

export function createServices(_deps: PlatformDeps): Services {
  return {
    close: async () => undefined,
  };
}
