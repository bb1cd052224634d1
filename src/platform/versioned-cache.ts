import { TtlCache } from './ttl-cache';

/**
 * A TtlCache for answers that belong to a versioned scope (an owner's data version): storing an
 * answer of a newer generation drops every answer of that scope's older generations at once, and
 * an answer of an older generation than the scope's newest is not stored. Kept by TTL and size
 * alone, superseded answers would stay until evicted; under steady writes that is thousands of
 * dead answers that outlive the young generation of the heap, and the old-space collections they
 * cause stall the process (seen as 100 to 200 ms latency spikes under load).
 */
export class VersionedCache<V> {
  private readonly entries: TtlCache<V>;
  /** Each scope's newest generation and the keys stored for it, oldest scope first. */
  private readonly scopes = new Map<string, { generation: number; keys: Set<string> }>();

  constructor(
    ttlMs: number,
    private readonly maxEntries: number,
    clock?: () => number,
  ) {
    this.entries = new TtlCache<V>(ttlMs, maxEntries, clock);
  }

  /** `key` names the answer in full (its scope and generation included). */
  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(scope: string, generation: number, key: string, value: V): void {
    let current = this.scopes.get(scope);
    if (current && generation < current.generation) return;
    if (!current || generation > current.generation) {
      if (current) this.dropScope(scope, current.keys);
      current = { generation, keys: new Set() };
      this.scopes.set(scope, current);
      if (this.scopes.size > this.maxEntries) {
        const [oldest, { keys }] = this.scopes.entries().next().value!;
        this.dropScope(oldest, keys);
      }
    }
    current.keys.add(key);
    this.entries.set(key, value);
  }

  private dropScope(scope: string, keys: Set<string>): void {
    for (const key of keys) this.entries.delete(key);
    this.scopes.delete(scope);
  }
}
