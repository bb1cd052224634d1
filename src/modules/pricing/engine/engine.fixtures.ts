/** Shared set-up of the engine's hand-computed tests: real bundled tariffs by name, and short call helpers. */
import { loadBundledTariffs } from '../../../../test/helpers/tariffs';
import type { Tariff } from '../../tariffs/tariff.model';
import { bundledLoadShapes } from '../load-shapes';
import { calculateBill, type BillRequest, type BillResult } from './index';

export const shapes = bundledLoadShapes();

/** Loads (in a beforeAll) the tariffs named by `ids`; read them through the returned object inside tests. */
export function bundledTariffs<K extends string>(ids: Record<K, string>): Record<K, Tariff> {
  const loaded = {} as Record<K, Tariff>;
  beforeAll(async () => {
    const keys = Object.keys(ids) as K[];
    const list = await loadBundledTariffs(keys.map((k) => ids[k]));
    keys.forEach((k, i) => (loaded[k] = list[i]));
  });
  return loaded;
}

export const bill = (tariff: Tariff, req: Partial<BillRequest>) => calculateBill(tariff, { usageKwh: 0, month: 1, ...req }, shapes);
export const amounts = (b: BillResult) => b.lineItems.map((i) => [i.category, i.name, i.amount]);
