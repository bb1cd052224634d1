import { TariffCatalog } from './catalog';

const row = (id: string, utilityName: string, name: string, extra: Partial<Parameters<typeof TariffCatalog.build>[2][number]> = {}) => ({
  id,
  name,
  utilityId: 'u1',
  utilityName,
  state: 'CA',
  sector: 'commercial',
  rateType: 'flat',
  hasTou: false,
  hasDemand: false,
  hasNetMetering: false,
  effectiveDate: null,
  expirationDate: null,
  description: '',
  serviceType: 'bundled',
  voltage: null,
  purpose: 'general',
  ...extra,
});

describe('TariffCatalog', () => {
  const catalog = TariffCatalog.build(
    'v1',
    null,
    [
      row('c', 'beta Power', 'A'),
      row('b', 'Alpha Electric', 'B', { utilityId: 'u2', sector: 'residential' }),
      row('a', 'Alpha Electric', 'B', { utilityId: 'u2', expirationDate: '2026-11-21' }),
      row('d', 'Alpha Electric', 'A', { utilityId: 'u2', expirationDate: '2026-11-22', hasTou: true }),
    ],
    [
      { zipCode: '94103', utilityId: 'u2' },
      { zipCode: '94110', utilityId: 'u1' },
      { zipCode: '94110', utilityId: 'u2' },
    ],
  );
  const all = { include_expired: true };

  it('orders by utility name, tariff name and id in code-point order (upper case first)', () => {
    expect(catalog.search(all, '2026-11-22', 0, 10).items.map((e) => e.id)).toEqual(['d', 'a', 'b', 'c']);
  });

  it('hides tariffs that expired before today but keeps ones expiring today', () => {
    const r = catalog.search({ include_expired: false }, '2026-11-22', 0, 10);
    expect(r.items.map((e) => e.id)).toEqual(['d', 'b', 'c']);
    expect(r.total).toBe(3);
  });

  it('matches utility names partially and case-insensitively, combined with other filters', () => {
    expect(catalog.search({ ...all, utility_name: 'ELECTRIC', has_tou: false }, '2026-11-22', 0, 10).items.map((e) => e.id)).toEqual([
      'a',
      'b',
    ]);
    expect(catalog.search({ ...all, utility_name: 'ha el', sector: 'residential' }, '2026-11-22', 0, 10).total).toBe(1);
  });

  it('limits a ZIP search to the utilities serving it, and finds nothing for an unknown ZIP', () => {
    expect(catalog.search({ ...all, zip_code: '94103' }, '2026-11-22', 0, 10).total).toBe(3);
    expect(catalog.search({ ...all, zip_code: '00000' }, '2026-11-22', 0, 10)).toEqual({ items: [], total: 0 });
    // Two serving utilities: their tariffs come back merged in catalog order.
    expect(catalog.search({ ...all, zip_code: '94110' }, '2026-11-22', 0, 10).items.map((e) => e.id)).toEqual(['d', 'a', 'b', 'c']);
    expect(catalog.search({ ...all, zip_code: '94110', sector: 'commercial' }, '2026-11-22', 1, 1)).toMatchObject({
      total: 3,
      items: [{ id: 'a' }],
    });
  });

  it('pages without losing the total, also past the last page', () => {
    expect(catalog.search(all, '2026-11-22', 2, 1)).toMatchObject({ total: 4, items: [{ id: 'b' }] });
    expect(catalog.search(all, '2026-11-22', 8, 2)).toEqual({ items: [], total: 4 });
  });
});
