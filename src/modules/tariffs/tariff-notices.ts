import { yearsBefore } from '../../platform/dates';
import type { Tariff } from './tariff.model';

/** Rates older than this many years are said to be possibly out of date. */
export const STALE_AFTER_YEARS = 5;

/** How old the tariff's data is, in the words a bill's `assumptions` carry (empty when current and recent). */
export function dataAgeNotices(t: Pick<Tariff, 'effectiveDate' | 'expirationDate'>, today: string): string[] {
  const notes: string[] = [];
  if (isExpired(t, today)) {
    notes.push(
      `the tariff expired on ${t.expirationDate}: the utility no longer bills these rates, so its current tariff may cost more or less`,
    );
  }
  if (t.effectiveDate === null) {
    notes.push("the tariff's effective date is not published: its rates may be out of date");
  } else if (isStale(t, today)) {
    notes.push(
      `the tariff's rates took effect on ${t.effectiveDate}, more than ${STALE_AFTER_YEARS} years ago: the utility's current rates may differ`,
    );
  }
  return notes;
}

/**
 * Everything a priced answer must say about the tariff itself rather than the bill: the age of
 * its data and what its classification had to assume. One place for calculate, compare, rate
 * analysis and due diligence.
 */
export function tariffNotices(t: Pick<Tariff, 'effectiveDate' | 'expirationDate' | 'classNote'>, today: string): string[] {
  const notes = dataAgeNotices(t, today);
  if (t.classNote) notes.push(t.classNote);
  return notes;
}

/** Stale: rates that took effect more than STALE_AFTER_YEARS before `today`, or whose effective date is not published. */
export function isStale(t: Pick<Tariff, 'effectiveDate'>, today: string): boolean {
  return t.effectiveDate === null || t.effectiveDate < yearsBefore(today, STALE_AFTER_YEARS);
}

/** Expired: an expiration date before `today` (an ISO date, UTC); ISO dates compare as strings. */
export function isExpired(t: Pick<Tariff, 'expirationDate'>, today: string): boolean {
  return t.expirationDate !== null && t.expirationDate < today;
}
