import { Redis } from 'ioredis';
import { sqlState } from './db/errors';

/**
 * A start-up failure the operator fixes outside the code (a busy port, a database that does not
 * answer): its message is one line that names the problem and the fix, printed without a stack.
 */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}

/** The errno code (ECONNREFUSED, ...) of an error or of one it wraps. */
function errnoCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}

/** host:port of a connection URL, without its credentials (5432 when the URL names no port). */
export function hostPortOf(url: string, defaultPort: number): string {
  try {
    const u = new URL(url);
    return `${u.hostname || 'localhost'}:${u.port || defaultPort}`;
  } catch {
    return '(unparsable URL)';
  }
}

/** Why a connection failed at the network, in words; undefined for another kind of error. */
function networkProblem(err: unknown): string | undefined {
  switch (errnoCode(err)) {
    case 'ECONNREFUSED':
      return 'connection refused (nothing listens there)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'no answer from the host';
    case 'ECONNRESET':
      return 'the connection was closed by the server';
  }
  return undefined;
}

/** Why a PostgreSQL connection failed, in words; undefined for an error that is not about reaching or entering it. */
function databaseProblem(err: unknown): string | undefined {
  const network = networkProblem(err);
  if (network) return network;
  switch (sqlState(err)) {
    case '28P01':
    case '28000':
      return 'the user or password in DATABASE_URL was refused';
    case '3D000':
      return 'the database named in DATABASE_URL does not exist';
  }
  return undefined;
}

/**
 * The StartupError for a failed first connection to DATABASE_URL, or `err` itself when the failure
 * is of another kind (a failing migration keeps its stack: that is a bug to report, not a setting).
 */
export function databaseStartupError(err: unknown, databaseUrl: string): unknown {
  const problem = databaseProblem(err);
  if (!problem) return err;
  return new StartupError(
    `Cannot use the PostgreSQL database at ${hostPortOf(databaseUrl, 5432)} (DATABASE_URL): ${problem}. ` +
      'Start PostgreSQL there or correct DATABASE_URL; or unset DATABASE_URL to use the embedded database in DATA_DIR.',
    { cause: err },
  );
}

/** The StartupError for a port the HTTP server cannot listen on, or `err` itself for another failure. */
export function listenStartupError(err: unknown, port: number): unknown {
  const code = errnoCode(err);
  if (code === 'EADDRINUSE') {
    return new StartupError(
      `Port ${port} is in use by another process: stop it, or set PORT to a free port (PORT=${port === 8000 ? 8001 : 8000} npm start).`,
      { cause: err },
    );
  }
  if (code === 'EACCES') {
    return new StartupError(`Port ${port} needs privileges this process does not have: set PORT to 1024 or above (PORT=8000 npm start).`, {
      cause: err,
    });
  }
  return err;
}

/** Why a Redis connection failed, in words (the network problem, else the error's own message). */
export function describeRedisError(err: unknown): string {
  return networkProblem(err) ?? (err instanceof Error ? err.message : String(err));
}

/** How long the start-up check of REDIS_URL waits for Redis to connect and answer PING. */
export const REDIS_CHECK_TIMEOUT_MS = 3000;

/**
 * One connection attempt to REDIS_URL and a PING, no retries: undefined when Redis answers, else
 * the one line that says what failed and what to do.
 */
export async function redisStartupProblem(redisUrl: string): Promise<string | undefined> {
  const client = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: REDIS_CHECK_TIMEOUT_MS,
    commandTimeout: REDIS_CHECK_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // The socket's error (ECONNREFUSED, ...) arrives here; connect() rejects only with "Connection is closed".
  let socketError: unknown;
  client.on('error', (err) => {
    socketError ??= err;
  });
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (err) {
    const problem = describeRedisError(socketError ?? err);
    return (
      `Cannot reach Redis at ${hostPortOf(redisUrl, 6379)} (REDIS_URL): ${problem}. ` +
      'Start Redis there or correct REDIS_URL; or unset REDIS_URL to run jobs in-process (`npm start`, one process).'
    );
  } finally {
    // A refused client has already ended: disconnect() would arm ioredis's 2 s timer that only the
    // socket's 'close' clears (long gone), keeping the process, and jest, open after the answer.
    if (client.status !== 'end') client.disconnect();
  }
}
