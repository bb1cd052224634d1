import crypto from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request id: the caller's valid X-Request-Id, or a new UUID; echoed in the response header. */
      id: string;
    }
  }
}

const VALID_REQUEST_ID = /^[\w.-]{1,128}$/;

/**
 * The line every request ends with. Only what an operator reads, flat: no headers (so nothing to
 * redact), no child logger per request.
 */
export interface RequestLogLine {
  reqId: string;
  method: string;
  url: string;
  statusCode: number;
  /** Milliseconds from the request's arrival to the last byte handed to the socket (or the abort). */
  responseTime: number;
}

/**
 * Request ids and one log line per request, at the cost of one listener and one object.
 * (pino-http builds a child logger per request and serialises it whether or not the line is
 * written.)
 * The line is written when the response is finished (`info`, `error` from 500) or the client
 * went away first (`warn`), through the logger's asynchronous destination.
 */
export function requestLog(logger: Logger, opts: { enabled: boolean }): RequestHandler {
  return (req, res, next) => {
    if (req.id === undefined) assignRequestId(req, res);
    if (opts.enabled && logger.isLevelEnabled('info')) {
      const started = performance.now();
      res.once('close', () => writeLine(logger, req, res, started));
    }
    next();
  };
}

/**
 * The request's id (the caller's valid X-Request-Id, or a new UUID), set on the request and the
 * answer's header. Mounted first in the app, so routes outside the logged ones (the webhook
 * receiver) have one too: every error body carries it.
 */
export function assignRequestId(req: Request, res: Response): void {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  req.id = id;
  res.setHeader('X-Request-Id', id);
}

export const requestId: RequestHandler = (req, res, next) => {
  assignRequestId(req, res);
  next();
};

function writeLine(logger: Logger, req: Request, res: Response, started: number): void {
  const line: RequestLogLine = {
    reqId: req.id,
    method: req.method,
    url: req.originalUrl,
    statusCode: res.statusCode,
    responseTime: Math.round((performance.now() - started) * 10) / 10,
  };
  if (!res.writableFinished) logger.warn(line, 'request aborted');
  else if (res.statusCode >= 500) logger.error(line, 'request errored');
  else logger.info(line, 'request completed');
}
