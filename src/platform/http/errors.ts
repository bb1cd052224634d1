import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { isDatabaseUnavailable, rootCause } from '../db/errors';
import { assignRequestId } from './request-log';

export interface FieldError {
  field: string;
  message: string;
}

/**
 * The one error type of the service. Thrown anywhere (services, repositories,
 * middleware); turned into the error body `{"detail", "code", "request_id"}` only by
 * errorHandler below. `code` is the stable machine code (ERROR_CODES); by default the status's.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string>; code?: string } = {},
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export const badRequest = (detail: string) => new AppError(400, detail);
/** `challenge` is the WWW-Authenticate value: Bearer for the API, Basic for the queue board. */
export const unauthorized = (detail = 'Not authenticated', challenge = 'Bearer') =>
  new AppError(401, detail, { headers: { 'WWW-Authenticate': challenge } });
export const notFound = (detail: string) => new AppError(404, detail);
export const conflict = (detail: string) => new AppError(409, detail);
/** A 422 for one field, with the `errors` array (`[{field, message}]`) every 422 carries. */
export const unprocessable = (detail: string, field = '') => new AppError(422, detail, { errors: [{ field, message: detail }] });
/** A 422 lists at most this many fields (a body of 10,000 bad RUBS units would list every one). */
export const MAX_LISTED_ERRORS = 100;
/** A 422 listing the fields at fault (the first MAX_LISTED_ERRORS); the detail is the first one's message. */
export const validationFailed = (errors: FieldError[]) =>
  new AppError(422, errors[0]?.message ?? 'validation errors', { errors: errors.slice(0, MAX_LISTED_ERRORS) });

/**
 * The machine `code` of each status, when the error names none of its own (ERROR_CODES lists every
 * code; the README's table of error codes is checked against it).
 */
export const STATUS_CODES: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'not_authenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_error',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'upstream_error',
  503: 'service_unavailable',
};

/** The codes errors name themselves, more precise than their status's. */
export const SPECIFIC_CODES = {
  invalid_json: 400,
  invalid_idempotency_key: 400,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 409,
  quota_exceeded: 429,
} as const;

/** Every code an error body can carry, with its status. */
export const ERROR_CODES: ReadonlyArray<{ code: string; status: number }> = [
  ...Object.entries(STATUS_CODES).map(([status, code]) => ({ code, status: Number(status) })),
  ...Object.entries(SPECIFIC_CODES).map(([code, status]) => ({ code, status })),
].sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));

/** An error's code: its own, else its status's (`error` for a status without one). */
export function errorCode(err: AppError): string {
  return err.extra.code ?? STATUS_CODES[err.status] ?? 'error';
}

export const notFoundRoute: RequestHandler = () => {
  throw notFound('Not Found');
};

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

function rootMessage(err: unknown): string {
  return String(rootCause(err)?.message ?? err);
}

/**
 * Renders every error: `detail` (and a 422's `errors`), the stable `code`, and `request_id`, the
 * answer's X-Request-Id. 5xx text never reaches a client.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    let appErr: AppError;
    if (err instanceof AppError) {
      appErr = err;
    } else {
      const e = err as BodyParserError;
      if (e?.type === 'entity.parse.failed') appErr = new AppError(400, 'Invalid JSON body', { code: 'invalid_json' });
      // Express's router could not percent-decode a path segment (%E0%A4%A): no id is written so, nothing is found.
      else if (err instanceof URIError) appErr = notFound('Not Found');
      else if (e?.type === 'entity.too.large') appErr = new AppError(413, 'Request body too large');
      else if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
        appErr = new AppError(415, 'Unsupported content encoding');
      else if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose)
        appErr = new AppError(e.status, (err as Error).message);
      // The database unreachable or restarting: a retry will do (e.g. a webhook provider's), unlike a 500.
      else if (isDatabaseUnavailable(err))
        appErr = new AppError(503, 'Service temporarily unavailable', { headers: { 'Retry-After': '5' } });
      else appErr = new AppError(500, 'Internal Server Error');
    }
    // An outage answers every request with 503: one short line each, not the failed query and its parameters.
    if (appErr.status === 503 && !(err instanceof AppError))
      logger.warn({ reqId: req.id, reason: rootMessage(err) }, 'database unavailable');
    else if (appErr.status >= 500) logger.error({ reqId: req.id, err }, 'request failed');
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(appErr.extra.headers ?? {})) res.setHeader(k, v);
    const body: Record<string, unknown> = { detail: appErr.detail };
    if (appErr.extra.errors) body.errors = appErr.extra.errors;
    body.code = errorCode(appErr);
    // An app built without the request-id middleware (a unit test's) still answers with one.
    if (req.id === undefined) assignRequestId(req, res);
    body.request_id = req.id;
    res.status(appErr.status).json(body);
  };
}
