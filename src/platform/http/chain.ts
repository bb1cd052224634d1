import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs middleware in order as one Express handler, with Express 5's semantics for what they
 * hand back: next(err) or a thrown error or a rejected promise goes to the error handlers.
 * Each layer Express walks costs a request allocations and matching; a route's guards, parser
 * and handler (and the app's front middleware) are one layer this way.
 */
export function chain(handlers: readonly RequestHandler[]): RequestHandler {
  if (handlers.length === 1) return handlers[0];
  return (req: Request, res: Response, next: NextFunction) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) return next(err);
      const handler = handlers[i++];
      if (handler === undefined) return next();
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) result.then(undefined, (rejected: unknown) => step(rejected ?? new Error('Rejected without a reason')));
      } catch (thrown) {
        step(thrown);
      }
    };
    step();
  };
}
