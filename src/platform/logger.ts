import pino, { type Logger } from 'pino';

export type { Logger };

/** Lines wait in memory until this many bytes are buffered, or the flush timer below. */
const BUFFER_BYTES = 4096;
/** The longest a line waits before it is written. */
const FLUSH_INTERVAL_MS = 200;

/**
 * JSON lines on stdout through an asynchronous, buffered destination: a log call appends to a
 * buffer and the write happens off the request path, a few kilobytes at a time (one write per
 * line cost a request about 5 % of its CPU). A line waits at most FLUSH_INTERVAL_MS; pino writes
 * what is left when the process exits (a SIGKILL can lose that much).
 */
export function createLogger(level: string): Logger {
  // No redaction: no log line carries request headers (request-log.ts writes a flat line without them).
  const options: pino.LoggerOptions = { name: 'api', level };
  if (level === 'silent') return pino(options);
  const destination = pino.destination({ dest: 1, sync: false, minLength: BUFFER_BYTES });
  let unwritten = false;
  const logger = pino({ ...options, hooks: { streamWrite: (line) => ((unwritten = true), line) } }, destination);
  setInterval(() => {
    if (!unwritten) return;
    unwritten = false;
    try {
      destination.flush();
    } catch {
      // The destination is closed: the process is exiting and pino has written what was left.
    }
  }, FLUSH_INTERVAL_MS).unref();
  return logger;
}
