import type http from 'node:http';
import { ConfigError } from '../src/platform/config';
import { DataDirLockedError } from '../src/platform/db/data-dir-lock';
import { StartupError } from '../src/platform/startup-error';

export function exitOnBootError(err: unknown): never {
  // Errors that say what to do: their message alone.
  if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof StartupError) console.error(err.message);
  else console.error('Start-up failed:', err);
  process.exit(1);
}

/** Runs the closers once, in order, on SIGTERM/SIGINT; a second signal exits at once. */
export function onShutdown(log: { info(msg: string): void; error(obj: unknown, msg: string): void }, closers: Array<() => Promise<void>>) {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info(`${signal} received, shutting down`);
    for (const close of closers) {
      try {
        await close();
      } catch (err) {
        log.error({ err }, 'error during shutdown');
      }
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/**
 * Stops an HTTP server gracefully: no new connections, requests in flight finish, then every
 * connection is closed. Node's close() closes only the keep-alive connections idle at that moment;
 * one busy then would stay open after its answer and go on serving a client that keeps sending on
 * it (a proxy's upstream connection), so the process would never get past this until SIGKILLed.
 * From now on every answer says `Connection: close`, and connections that go idle are closed.
 */
export function closeHttpServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 200);
    sweep.unref();
    server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => res.setHeader('connection', 'close'));
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
  });
}
