/** The driver errors behind an error, drizzle's wrapper (DrizzleQueryError) included. */
function* causes(err: unknown): Generator<{ code?: unknown; message?: unknown; constraint?: unknown }> {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    yield e as { code?: unknown; message?: unknown; constraint?: unknown };
  }
}

/**
 * The innermost error of the cause chain causes() walks (at most 5 deep, so a cyclic chain
 * ends); undefined when `err` is not an object.
 */
export function rootCause(err: unknown): { code?: unknown; message?: unknown; constraint?: unknown } | undefined {
  let root: { code?: unknown; message?: unknown; constraint?: unknown } | undefined;
  for (const e of causes(err)) root = e;
  return root;
}

/** PostgreSQL's SQLSTATE of an error (or of the driver error it wraps), if any. */
export function sqlState(err: unknown): string | undefined {
  for (const e of causes(err)) if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  return undefined;
}

/** A unique violation (23505), of the named constraint or unique index when `constraint` is given. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  for (const e of causes(err)) {
    if (e.code === '23505' && (constraint === undefined || e.constraint === constraint)) return true;
  }
  return false;
}

/** A deadlock or serialization failure: the transaction did nothing, and running it again is safe. */
export function isTransientConflict(err: unknown): boolean {
  const state = sqlState(err);
  return state === '40P01' || state === '40001';
}

/** Socket-level failures of reaching the server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
]);

/**
 * True when the error means the database cannot be reached or is restarting, not that the
 * statement was wrong: connection refused or dropped, the server shutting down or starting up
 * (SQLSTATE class 08, 57P01..57P03), too many connections (53300).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of causes(err)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (NETWORK_CODES.has(code)) return true;
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
    const message = typeof e.message === 'string' ? e.message : '';
    // node-postgres reports a socket closed under it with these messages and no code.
    if (/Connection terminated|connection timeout|Client has encountered a connection error|terminating connection/i.test(message))
      return true;
  }
  return false;
}

/** The rows of a raw `execute` result, on either driver (node-postgres and PGlite both answer { rows }). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
