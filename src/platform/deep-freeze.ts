/**
 * Freezes a value and everything reachable from it; returns it. For answers a cache hands to many
 * requests: a caller that changed one would change it for every later request.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
