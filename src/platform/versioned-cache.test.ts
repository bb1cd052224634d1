import { VersionedCache } from './versioned-cache';

describe('VersionedCache', () => {
  it('keeps several answers of one generation, and drops them all when a newer generation is stored', () => {
    const cache = new VersionedCache<string>(1000, 10, () => 0);
    cache.set('owner-a', 5, 'a/5/stats', 'S5');
    cache.set('owner-a', 5, 'a/5/trend', 'T5');
    cache.set('owner-b', 2, 'b/2/stats', 'B2');
    expect([cache.get('a/5/stats'), cache.get('a/5/trend')]).toEqual(['S5', 'T5']);
    cache.set('owner-a', 6, 'a/6/stats', 'S6');
    expect([cache.get('a/5/stats'), cache.get('a/5/trend'), cache.get('a/6/stats')]).toEqual([undefined, undefined, 'S6']);
    // Another scope is untouched.
    expect(cache.get('b/2/stats')).toBe('B2');
  });

  it('does not store an answer of an older generation than the newest stored', () => {
    const cache = new VersionedCache<string>(1000, 10, () => 0);
    cache.set('owner-a', 6, 'a/6/stats', 'S6');
    cache.set('owner-a', 5, 'a/5/stats', 'S5');
    expect([cache.get('a/5/stats'), cache.get('a/6/stats')]).toEqual([undefined, 'S6']);
  });

  it('expires answers by time-to-live and drops the oldest scope when it holds too many', () => {
    let now = 0;
    const cache = new VersionedCache<string>(100, 2, () => now);
    cache.set('a', 1, 'a1', 'A');
    cache.set('b', 1, 'b1', 'B');
    cache.set('c', 1, 'c1', 'C');
    expect([cache.get('a1'), cache.get('b1'), cache.get('c1')]).toEqual([undefined, 'B', 'C']);
    now = 100;
    expect(cache.get('c1')).toBeUndefined();
  });
});
