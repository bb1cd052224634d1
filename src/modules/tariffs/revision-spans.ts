import { dayNumber, isoDateOfDay } from '../../platform/dates';
import type { Tariff } from './tariff.model';
import type { VersionSpan } from './custom/versions';

/**
 * The days of a billing period each revision of a catalog schedule prices: revisions oldest first
 * (findRevisionChain), each in force from its effective date until the day before the next one's;
 * the oldest also prices days before it took effect (a catalog tariff has no "not yet in force").
 * A period before a refresh's new revision prices on the older one; one after it on the newer; one
 * across it on each, by days (pricing README, "Billing periods"). Pure.
 */
export function revisionSpans(chain: readonly Tariff[], start: string, end: string): VersionSpan[] {
  const spans: VersionSpan[] = [];
  chain.forEach((t, i) => {
    const next = chain[i + 1];
    const from = i === 0 || t.effectiveDate === null ? start : t.effectiveDate;
    const to = next?.effectiveDate ? isoDateOfDay(dayNumber(next.effectiveDate) - 1) : end;
    const a = from > start ? from : start;
    const b = to < end ? to : end;
    if (a <= b) spans.push({ tariff: t, from: a, to: b });
  });
  return spans;
}
