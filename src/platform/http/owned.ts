import { notFound } from './errors';

/**
 * A service's "the caller's thing of this id, or 404": `find` reads the row of that id when it is
 * the owner's (null otherwise); none, someone else's included, is the 404 `detail` ("Meter not
 * found"), so an id of another owner's thing answers as an unknown one does.
 */
export function requireOwnedBy<R>(
  find: (ownerId: string, id: string) => Promise<R | null>,
  detail: string,
): (ownerId: string, id: string) => Promise<R> {
  return async (ownerId, id) => {
    const row = await find(ownerId, id);
    if (!row) throw notFound(detail);
    return row;
  };
}
