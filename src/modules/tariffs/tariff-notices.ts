import type { Tariff } from './tariff.model';

/** Rates older than this many years are said to be possibly out of date. */
export const STALE_AFTER_YEARS = 5;

/** The date `years` before an ISO date (Feb 29 goes to Feb 28 in a common year). */
function yearsBefore(isoDate: string, years: number): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const year = y - years;
  const lastDay = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}`;
}

/** How old the tariff's data is, in the words a bill's `assumptions` carry (empty when current and recent). */
export function dataAgeNotices(t: Pick<Tariff, 'effectiveDate' | 'expirationDate'>, today: string): string[] {
  const notes: string[] = [];
  if (isExpired(t, today)) {
    notes.push(`the tariff expired on ${t.expirationDate}: the utility no longer bills these rates, so its current tariff may cost more or less`);
  }
  if (t.effectiveDate === null) {
    notes.push('the tariff\'s effective date is not published: its rates may be out of date');
  } else if (t.effectiveDate < yearsBefore(today, STALE_AFTER_YEARS)) {
    notes.push(`the tariff's rates took effect on ${t.effectiveDate}, more than ${STALE_AFTER_YEARS} years ago: the utility's current rates may differ`);
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

/** Expired: an expiration date before `today` (an ISO date, UTC); ISO dates compare as strings. */
export function isExpired(t: Pick<Tariff, 'expirationDate'>, today: string): boolean {
  return t.expirationDate !== null && t.expirationDate < today;
}
