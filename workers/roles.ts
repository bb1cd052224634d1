import http from 'node:http';
import { bootPlatform } from '../src/platform/bootstrap';
import { createApp } from '../src/app';
import { onShutdown } from './shutdown';

/** Starts the HTTP server; resolves once it listens. */
export async function startWeb() {
  const deps = await bootPlatform();
  const built = createApp(deps);
  const server = http.createServer(built.app);
  // Keep-alive longer than typical load-balancer idle timeouts.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(deps.config.port, resolve));
  deps.logger.info({ port: deps.config.port, database: deps.database.kind, queue: deps.queue.driver }, 'listening');
  onShutdown(deps.logger, [
    () => new Promise<void>((resolve) => server.close(() => resolve())),
    () => built.close(),
    () => deps.queue.close(),
    () => deps.database.close(),
  ]);
  return { deps, server };
}
