import type { z } from 'zod';
import { callerId } from './auth';
import { pageOfOwnedList, type PageQuery } from './pagination';
import type { ApiRouter, RouteSpec } from './router';

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
