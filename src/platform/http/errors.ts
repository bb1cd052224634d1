import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { isDatabaseUnavailable, rootCause } from '../db/errors';

export interface FieldError {
  field: string;
  message: string;
}

/**
 * The one error type of the service. Thrown anywhere (services, repositories,
 * middleware); turned into the error body `{"detail": ...}` only by
 * errorHandler below.
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
export const unprocessable = (detail: string, field = '') =>
  new AppError(422, detail, { errors: [{ field, message: detail }] });
/** A 422 lists at most this many fields (a body of 10,000 bad RUBS units would list every one). */
export const MAX_LISTED_ERRORS = 100;
/** A 422 listing the fields at fault (the first MAX_LISTED_ERRORS); the detail is the first one's message. */
export const validationFailed = (errors: FieldError[]) =>
  new AppError(422, errors[0]?.message ?? 'validation errors', { errors: errors.slice(0, MAX_LISTED_ERRORS) });

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

/** Renders every error; 5xx text never reaches a client. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    let appErr: AppError;
    if (err instanceof AppError) {
      appErr = err;
    } else {
      const e = err as BodyParserError;
      if (e?.type === 'entity.parse.failed') appErr = badRequest('Invalid JSON body');
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
    if (appErr.status === 503 && !(err instanceof AppError)) logger.warn({ reqId: req.id, reason: rootMessage(err) }, 'database unavailable');
    else if (appErr.status >= 500) logger.error({ reqId: req.id, err }, 'request failed');
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(appErr.extra.headers ?? {})) res.setHeader(k, v);
    const body: Record<string, unknown> = { detail: appErr.detail };
    if (appErr.extra.errors) body.errors = appErr.extra.errors;
    res.status(appErr.status).json(body);
  };
}
