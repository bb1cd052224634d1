/**
 * One run's tariff reads: what a batch that prices many bills (the bill audit, rate analysis, a
 * what-if) asks of pricing, read once per owner, tariff and supply contract however many bills price
 * on it. Made per run and dropped with it, so nothing has to be told when a tariff changes.
 */
import type { PricingService, TariffOverPeriods } from './service';

export type TariffReads = (ownerId: string | null, ids: { tariffId: string; supplyTariffId?: string | null }) => Promise<TariffOverPeriods>;

export function tariffReadsOnce(pricing: Pick<PricingService, 'tariffOverPeriods'>): TariffReads {
  const reads = new Map<string, Promise<TariffOverPeriods>>();
  return (ownerId, ids) => {
    const key = `${ownerId ?? ''}|${ids.tariffId}|${ids.supplyTariffId ?? ''}`;
    let read = reads.get(key);
    if (read === undefined) reads.set(key, (read = pricing.tariffOverPeriods(ownerId, ids)));
    return read;
  };
}
