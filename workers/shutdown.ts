import { ConfigError } from '../src/platform/config';

export function exitOnBootError(err: unknown): never {
  if (err instanceof ConfigError) console.error(err.message);
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
