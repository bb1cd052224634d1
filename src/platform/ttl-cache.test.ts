import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('serves an entry until its time-to-live has passed', () => {
    let now = 1000;
    const cache = new TtlCache<string>(500, 10, () => now);
    cache.set('a', 'A');
    now = 1499;
    expect(cache.get('a')).toBe('A');
    now = 1500;
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the oldest entry when full, and on delete', () => {
    const cache = new TtlCache<number>(1000, 2, () => 0);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
    cache.delete('b');
    expect(cache.get('b')).toBeUndefined();
  });

  it('caches nothing with a zero time-to-live', () => {
    const cache = new TtlCache<number>(0, 2, () => 0);
    cache.set('a', 1);
    expect(cache.get('a')).toBeUndefined();
  });
});
