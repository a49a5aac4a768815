import { expect } from 'chai';
import { CredentialCache } from '../../adapters/persistence/credential-cache';
import type { FacadeCredentials } from '../../ports/credential-repository';

const credentials = (name: string): FacadeCredentials => ({
  organization: { id: 1, name, frozenNow: null, rateLimit: null, createdAt: new Date(0) },
  clientUser: { id: 2, organizationId: 1, username: 'u', passwordHash: '', disabled: false, createdAt: new Date(0) },
  companies: [],
  apiKeyPrefix: 'ck_dev_abcde',
});

describe('CredentialCache', () => {
  let now = 0;
  const clock = () => now;

  beforeEach(() => {
    now = 1_000;
  });

  /** A lookup that answers when the test says so, counting how many began. */
  function controlledLoads() {
    const releases: ((value: FacadeCredentials | null) => void)[] = [];
    const failures: ((error: Error) => void)[] = [];
    const load = () =>
      new Promise<FacadeCredentials | null>((resolve, reject) => {
        releases.push(resolve);
        failures.push(reject);
      });
    return { load, releases, failures, began: () => releases.length };
  }

  it('reuses a lookup within the TTL and waits for a new one after it', async () => {
    const cache = new CredentialCache(2000, 10, clock);
    let loads = 0;
    const load = async () => credentials(`v${++loads}`);
    expect((await cache.get('k', load))!.organization.name).to.equal('v1');
    now += 999;
    expect((await cache.get('k', load))!.organization.name).to.equal('v1');
    expect(loads).to.equal(1);
    now += 1001;
    expect((await cache.get('k', load))!.organization.name).to.equal('v2');
    expect(loads).to.equal(2);
  });

  it('past half the TTL answers the cached lookup at once and refreshes it in the background, once', async () => {
    const cache = new CredentialCache(2000, 10, clock);
    await cache.get('k', async () => credentials('v1'));
    now += 1000;
    const { load, releases, began } = controlledLoads();
    const answers = await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    expect(answers.map((a) => a!.organization.name)).to.deep.equal(['v1', 'v1', 'v1']);
    expect(began()).to.equal(1);
    releases[0]!(credentials('v2'));
    await new Promise((resolve) => setImmediate(resolve));
    // The refresh began 1000 ms after the first lookup: it is served until 2000 ms after it began.
    now += 1999;
    expect((await cache.get('k', load))!.organization.name).to.equal('v2');
    expect(began()).to.equal(2);
  });

  it('expired, the requests that need a key at once share one lookup', async () => {
    const cache = new CredentialCache(2000, 10, clock);
    const { load, releases, began } = controlledLoads();
    const waiting = Promise.all(Array.from({ length: 32 }, () => cache.get('k', load)));
    expect(began()).to.equal(1);
    releases[0]!(credentials('v1'));
    expect((await waiting).every((a) => a!.organization.name === 'v1')).to.equal(true);
    now += 2000;
    const again = Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect(began()).to.equal(2);
    releases[1]!(credentials('v2'));
    expect((await again).map((a) => a!.organization.name)).to.deep.equal(['v2', 'v2']);
  });

  it('keeps serving until expiry when a background refresh fails, then looks up again', async () => {
    const cache = new CredentialCache(2000, 10, clock);
    await cache.get('k', async () => credentials('v1'));
    now += 1500;
    const { load, releases, failures, began } = controlledLoads();
    expect((await cache.get('k', load))!.organization.name).to.equal('v1');
    failures[0]!(new Error('database gone'));
    await new Promise((resolve) => setImmediate(resolve));
    expect((await cache.get('k', load))!.organization.name).to.equal('v1');
    expect(began()).to.equal(2);
    now += 500;
    // Expired, it joins the refresh under way, and meets its failure.
    let failed: unknown;
    const expired = cache.get('k', load).catch((error: unknown) => (failed = error));
    failures[1]!(new Error('still gone'));
    await expired;
    expect((failed as Error).message).to.equal('still gone');
    expect(began()).to.equal(2);
    const next = cache.get('k', load);
    expect(began()).to.equal(3);
    releases[2]!(credentials('v2'));
    expect((await next)!.organization.name).to.equal('v2');
  });

  it('a request after a clear does not join a lookup that began before it', async () => {
    const cache = new CredentialCache(2000, 10, clock);
    const { load, releases, began } = controlledLoads();
    const before = cache.get('k', load);
    cache.clear();
    const after = cache.get('k', load);
    expect(began()).to.equal(2);
    releases[1]!(credentials('fresh'));
    releases[0]!(credentials('stale'));
    expect((await before)!.organization.name).to.equal('stale');
    expect((await after)!.organization.name).to.equal('fresh');
    expect((await cache.get('k', load))!.organization.name).to.equal('fresh');
  });

  it('never keeps a failed lookup', async () => {
    const cache = new CredentialCache(2000, 10, clock);
    let loads = 0;
    const load = async () => (++loads === 1 ? null : credentials('found'));
    expect(await cache.get('k', load)).to.equal(null);
    expect((await cache.get('k', load))!.organization.name).to.equal('found');
  });

  it('forgets everything on clear', async () => {
    const cache = new CredentialCache(2000, 10, clock);
    let loads = 0;
    const load = async () => credentials(`v${++loads}`);
    await cache.get('k', load);
    cache.clear();
    expect((await cache.get('k', load))!.organization.name).to.equal('v2');
  });

  it('does not store a read that raced a clear (it may hold what the write replaced)', async () => {
    const cache = new CredentialCache(2000, 10, clock);
    let release!: () => void;
    const slow = cache.get('k', () => new Promise((resolve) => (release = () => resolve(credentials('stale')))));
    cache.clear();
    release();
    expect((await slow)!.organization.name).to.equal('stale');
    expect((await cache.get('k', async () => credentials('fresh')))!.organization.name).to.equal('fresh');
  });

  it('hands out frozen values, so callers cannot change what is cached', async () => {
    const cache = new CredentialCache(2000, 10, clock);
    const first = (await cache.get('k', async () => credentials('orig')))!;
    expect(() => {
      first.organization.name = 'changed';
    }).to.throw(TypeError);
    expect((await cache.get('k', async () => credentials('other')))!.organization.name).to.equal('orig');
  });

  it('evicts the oldest entry past the size bound, and a TTL of 0 disables it', async () => {
    const cache = new CredentialCache(2000, 2, clock);
    let loads = 0;
    const load = async () => credentials(`v${++loads}`);
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('c', load);
    expect((await cache.get('a', load))!.organization.name).to.equal('v4');
    const off = new CredentialCache(0, 10, clock);
    let offLoads = 0;
    await off.get('k', async () => credentials(`${++offLoads}`));
    await off.get('k', async () => credentials(`${++offLoads}`));
    expect(offLoads).to.equal(2);
  });
});
