/**
 * How far ahead of this service's clock an event's `timestamp` may be: a sender's clock that runs
 * a little fast is allowed for, a date in the future is not (it would make every later event of
 * the same record look older, so "stale", for good).
 */
export const MAX_FUTURE_SKEW_MS = 5 * 60_000;

/** The latest event time believable at `now`: now plus MAX_FUTURE_SKEW_MS. */
export function latestBelievable(now: Date): Date {
  return new Date(now.getTime() + MAX_FUTURE_SKEW_MS);
}

/**
 * Why an event stamped `timestamp` (ISO 8601 with a zone, as the envelope has checked it) is
 * refused when it arrives at `now`, or null when it is taken. Pure.
 */
export function futureTimestampProblem(timestamp: string, now: Date): string | null {
  const at = Date.parse(timestamp);
  if (Number.isNaN(at) || at <= latestBelievable(now).getTime()) return null;
  return (
    `timestamp: ${timestamp} is more than ${MAX_FUTURE_SKEW_MS / 60_000} minutes ahead of the time it was received ` +
    `(${now.toISOString()}); the event is not stored: send it again with the time it occurred`
  );
}
