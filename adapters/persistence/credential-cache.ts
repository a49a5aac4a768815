import { LRUCache } from 'lru-cache';
import type { FacadeCredentials } from '../../ports/credential-repository';

/**
 * A short-lived, in-process cache of facade credential lookups (the one query every request
 * makes). Any tenancy write through this process clears it at once; other processes (more API
 * instances, the admin CLI) see such changes within `ttlMs`. A generation counter keeps a read
 * that raced a write from re-filling the cache with what the write replaced.
 */
export class CredentialCache {
  private readonly entries: LRUCache<string, { value: FacadeCredentials | null; expiresAt: number }>;
  private generation = 0;

  constructor(
    readonly ttlMs: number,
    maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  async get(key: string, load: () => Promise<FacadeCredentials | null>): Promise<FacadeCredentials | null> {
    if (this.ttlMs <= 0) return load();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.now()) return hit.value;
    const generation = this.generation;
    const value = await load();
    // Only successful lookups are kept: a rejected key must not crowd out the good ones.
    if (value && generation === this.generation) {
      // Frozen rather than copied on every hit (a copy per request was measurable): no caller can
      // change what the next request reads.
      this.entries.set(key, { value: deepFreeze(value), expiresAt: this.now() + this.ttlMs });
    }
    return value;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value) && !(value instanceof Date)) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
