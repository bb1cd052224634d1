import type { z } from 'zod';
import { callerId } from './auth';
import { pageOfOwnedList, type PageQuery } from './pagination';
import type { ApiRouter, RouteInput, RouteSpec } from './router';

/** What a list route says of itself; the frame adds the rest (pageOfOwnedList). */
type OwnedListSpec<P extends z.ZodType> = Pick<
  RouteSpec<z.ZodUnknown, z.ZodUnknown, P>,
  'summary' | 'description' | 'tags' | 'response'
> & {
  params: P;
  /** The 404's detail ("Property not found"), for an id of someone else's thing too. */
  notFound: string;
};

/**
 * GET of one page of the list under one of the signed-in caller's things, which the path's `:id`
 * names (a property's bills, meters or units): `list` reads the page for the caller, that id and
 * the page asked for.
 */
export function getPageOfOwnedList<P extends z.ZodType<{ id: string }>>(
  api: ApiRouter,
  path: string,
  spec: OwnedListSpec<P>,
  list: (ownerId: string, id: string, q: PageQuery) => unknown,
): void {
  const { params, notFound, ...route } = spec;
  api.get(path, { ...route, ...pageOfOwnedList(params, notFound) }, ({ params: named, query, req }) =>
    list(callerId(req), named.id, query),
  );
}

/** What a route of the caller's own list says of itself: `query` is a page (pageQuery) and any filters. */
type OwnListSpec<Q extends z.ZodType<PageQuery>> = Pick<
  RouteSpec<z.ZodUnknown, Q, z.ZodUnknown>,
  'summary' | 'description' | 'tags' | 'response'
> & { query: Q };

/**
 * GET of one page of the signed-in caller's own list (portfolios, properties, notifications):
 * `list` reads the page, and the filters, that the query asks for, of the caller's.
 */
export function getPageOfOwnList<Q extends z.ZodType<PageQuery>>(
  api: ApiRouter,
  path: string,
  spec: OwnListSpec<Q>,
  list: (ownerId: string, q: z.output<Q>) => unknown,
): void {
  api.get(path, { ...spec, auth: 'required' }, ({ query, req }) => list(callerId(req), query));
}

/** What a route on one of the caller's things says of itself; the frame adds the auth and the 404. */
type OwnedSpec<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> = Omit<RouteSpec<B, Q, P>, 'auth' | 'params'> & {
  params: P;
  /** The 404's detail ("Portfolio not found"), for an id of someone else's thing too. */
  notFound: string;
};

/**
 * A signed-in caller's route on one thing of theirs, which the path's `:id` names (a portfolio, a
 * property's PMS link, a stored calculation): `notFound` is its 404, which a thing of someone
 * else's answers too, with the spec's other errors. `handle` gets the caller's id, that id and the
 * route's validated input.
 */
export function onOwned<P extends z.ZodType<{ id: string }>, B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown>(
  api: ApiRouter,
  method: 'get' | 'post' | 'put' | 'patch' | 'delete',
  path: string,
  spec: OwnedSpec<B, Q, P>,
  handle: (ownerId: string, id: string, input: RouteInput<z.output<B>, z.output<Q>, z.output<P>>) => unknown,
): void {
  const { notFound, errors, ...route } = spec;
  api[method]<B, Q, P>(path, { ...route, auth: 'required', errors: { ...errors, 404: notFound } }, (input) =>
    handle(callerId(input.req), input.params.id, input),
  );
}
