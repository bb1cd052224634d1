/**
 * When a failed delivery is tried again (README "Retries"): the schedule of Svix, the authors of
 * Standard Webhooks (https://docs.svix.com/retries). The first attempt at once, then 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h and 10 h after each failure; 8 attempts spread over 27 h 35 min 5 s. An
 * endpoint whose every attempt failed for 5 days is disabled, as Svix does. Pure: no clock, no database.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** A delivery is pending until an attempt succeeds, and failed once the schedule is used up. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Delay before attempt n+1 (index n): attempt 1 at once. */
export const RETRY_DELAYS_MS: readonly number[] = [0, 5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length;

/** An endpoint whose every attempt failed for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * HOUR;

/** The next attempt after `attemptsMade` attempts all failed, or null once the schedule is used up. */
export function nextAttemptAt(attemptsMade: number, failedAt: Date): Date | null {
  if (attemptsMade >= MAX_ATTEMPTS) return null;
  return new Date(failedAt.getTime() + RETRY_DELAYS_MS[attemptsMade]!);
}

/** True when an endpoint failing since `failingSince` has failed long enough at `now` to be disabled. */
export function failedTooLong(failingSince: Date | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS;
}
