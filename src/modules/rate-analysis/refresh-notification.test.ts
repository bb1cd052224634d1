import { adviceChanges, adviceOf, NAMED_PROPERTIES, refreshNotification } from './refresh-notification';
import type { RateAnalysis } from './rate-analysis.calc';

const analysis = (propertyId: string, recommendation: string): RateAnalysis => ({
  property_id: propertyId,
  current_tariff: { id: 'r1', name: 'Rate 1', estimated_monthly_cost: 100 },
  alternatives: [
    { tariff_id: 'r7', name: 'Rate 7', estimated_monthly_cost: 90, monthly_savings: 10, annual_savings: 120, savings_percent: 10 },
  ],
  excluded: [],
  needs_review: [],
  basis: { kind: 'typed_usage' },
  catalog_current: true,
  latest_tariff_end_date: null,
  recommendation,
  analyzed_at: '2026-11-28T12:00:00.000Z',
});

describe('advice changed by a tariff refresh', () => {
  const names = new Map([
    ['p1', 'Oak Ave'],
    ['p2', 'Elm St'],
    ['p3', 'New Build'],
  ]);

  it('names staying and moving in words', () => {
    expect(adviceOf(analysis('p1', 'r1'))).toBe('stay on Rate 1');
    expect(adviceOf(analysis('p1', 'r7'))).toBe('move to Rate 7');
  });

  it('lists the properties whose recommendation differs, by name; not the unchanged nor the first analysed', () => {
    const before = new Map([
      ['p1', analysis('p1', 'r1')],
      ['p2', analysis('p2', 'r7')],
    ]);
    const after = [analysis('p1', 'r7'), analysis('p2', 'r7'), analysis('p3', 'r1')];
    expect(adviceChanges(before, after, names)).toEqual([
      { propertyId: 'p1', propertyName: 'Oak Ave', was: 'stay on Rate 1', now: 'move to Rate 7' },
    ]);
  });

  it('one notification per account and run, naming the properties; none without a change', () => {
    const change = { propertyId: 'p1', propertyName: 'Oak Ave', was: 'stay on Rate 1', now: 'move to Rate 7' };
    expect(refreshNotification('u1', 'rr_1', [])).toBeNull();
    expect(refreshNotification('u1', 'rr_1', [change])).toEqual({
      userId: 'u1',
      type: 'tariff_refresh_advice',
      propertyId: 'p1',
      message:
        'The tariff catalog was refreshed from URDB and the rate advice changed for 1 property: Oak Ave: now move to Rate 7 (was: stay on Rate 1)',
      dedupeKey: 'tariff-refresh-advice:rr_1',
    });
    const many = Array.from({ length: NAMED_PROPERTIES + 2 }, (_, i) => ({ ...change, propertyId: `p${i}`, propertyName: `P${i}` }));
    const note = refreshNotification('u1', 'rr_1', many)!;
    expect(note.propertyId).toBeNull();
    expect(note.message).toMatch(/changed for 12 properties: P0: .*P9: now move to Rate 7 \(was: stay on Rate 1\); and 2 more$/);
  });
});
