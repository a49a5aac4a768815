import { LRUCache } from 'lru-cache';
import type { FacadeCredentials } from '../../ports/credential-repository';

type Lookup = () => Promise<FacadeCredentials | null>;

/**
 * A short-lived, in-process cache of facade credential lookups (the one query every request
 * makes). Any tenancy write through this process clears it at once; other processes (more API
 * instances, the admin CLI) see such changes within `ttlMs`: a lookup is served until `ttlMs`
 * after it began. A generation counter keeps a read that raced a write from re-filling the cache
 * with what the write replaced.
 *
 * Under steady traffic a key never expires, and nobody waits for its lookup: once half of `ttlMs`
 * has passed, a request still gets the cached lookup at once and starts the next one in the
 * background. One lookup per key runs at a time; the requests that need it meanwhile share it.
 * (Expiring in front of the traffic stalled every request in flight every `ttlMs`: at 32
 * connections, 32 lookups of one key at once, each waiting for a pooled connection.)
 */
export class CredentialCache {
  private readonly entries: LRUCache<string, { value: FacadeCredentials; loadedAt: number }>;
  /** The lookup under way per key. */
  private readonly loading = new Map<string, Promise<FacadeCredentials | null>>();
  private generation = 0;

  constructor(
    readonly ttlMs: number,
    maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  /**
   * The cached lookup of `key`, or `load`'s. `load` may serve other callers of the same key and run
   * after this caller has its answer (a background refresh): it must not read through a caller's
   * transaction (the authentication's lookup reads through the pool).
   */
  async get(key: string, load: Lookup): Promise<FacadeCredentials | null> {
    if (this.ttlMs <= 0) return load();
    const hit = this.entries.get(key);
    if (hit) {
      const age = this.now() - hit.loadedAt;
      if (age < this.ttlMs) {
        // A failed refresh leaves the entry to its expiry; the next request past half tries again.
        if (age >= this.ttlMs / 2) this.lookUp(key, load).catch(() => undefined);
        return hit.value;
      }
    }
    return this.lookUp(key, load);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    // A lookup that began before the write may hold what the write replaced: nobody joins it.
    this.loading.clear();
  }

  /** The key's lookup under way, or a new one. */
  private lookUp(key: string, load: Lookup): Promise<FacadeCredentials | null> {
    const underWay = this.loading.get(key);
    if (underWay) return underWay;
    const generation = this.generation;
    const loadedAt = this.now();
    const lookup = load()
      .then((value) => {
        // Only successful lookups are kept: a rejected key must not crowd out the good ones.
        if (value && generation === this.generation) {
          // Frozen rather than copied on every hit (a copy per request was measurable): no caller
          // can change what the next request reads.
          this.entries.set(key, { value: deepFreeze(value), loadedAt });
        }
        return value;
      })
      .finally(() => {
        if (this.loading.get(key) === lookup) this.loading.delete(key);
      });
    this.loading.set(key, lookup);
    return lookup;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value) && !(value instanceof Date)) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
