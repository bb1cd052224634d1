import { z } from 'zod';

/** A page far past any list's end: the offset stays a small number for the database. */
export const MAX_PAGE = 1_000_000;

/** page 1..MAX_PAGE (default 1), per_page 1..100 (default 20); anything else is 422. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(MAX_PAGE).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
});

export type PageQuery = z.infer<typeof pageQuery>;

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  per_page: number;
  pages: number;
}

export function offsetOf(q: PageQuery): number {
  return (q.page - 1) * q.per_page;
}

export function toPage<T>(items: T[], total: number, q: PageQuery): Page<T> {
  return {
    items,
    total,
    page: q.page,
    per_page: q.per_page,
    pages: total === 0 ? 0 : Math.ceil(total / q.per_page),
  };
}

/**
 * The route spec fields of a signed-in caller's GET of one page of the list under a thing of theirs
 * that the path names (a property's bills, meters or units): `notFound` is its 404, which a thing
 * of someone else's answers too.
 */
export function pageOfOwnedList<P extends z.ZodType>(params: P, notFound: string) {
  return { auth: 'required' as const, params, query: pageQuery, errors: { 404: notFound } };
}

/**
 * The page of a list that lives inside a larger answer (health scores, benchmark rankings): the
 * answer keeps its shape and its statistics over the whole list, and names the page it carries.
 * per_page 1..1,000 (default 100): a portfolio's list reads on one page, a 10,000-property owner's
 * does not arrive as megabytes.
 */
export const listPageQuery = pageQuery.extend({
  per_page: z.coerce.number().int().min(1).max(1_000).default(100),
});

export const listPageFields = {
  total: z.number().int().meta({ description: 'items in the whole list (after any filter)' }),
  page: z.number().int(),
  per_page: z.number().int(),
  pages: z.number().int(),
};

/** The items of page `q` of `all`, and the fields that describe it. */
export function pageOfList<T>(all: readonly T[], q: PageQuery): Page<T> {
  const { items: _all, ...meta } = toPage([], all.length, q);
  return { items: all.slice(offsetOf(q), offsetOf(q) + q.per_page), ...meta };
}

/** OpenAPI/zod description of a Page of `item`. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    per_page: z.number().int(),
    pages: z.number().int(),
  });
}
