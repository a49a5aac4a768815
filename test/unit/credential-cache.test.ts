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

  it('reuses a lookup within the TTL and reloads after it', async () => {
    const cache = new CredentialCache(2000, 10, clock);
    let loads = 0;
    const load = async () => credentials(`v${++loads}`);
    expect((await cache.get('k', load))!.organization.name).to.equal('v1');
    now += 1999;
    expect((await cache.get('k', load))!.organization.name).to.equal('v1');
    now += 1;
    expect((await cache.get('k', load))!.organization.name).to.equal('v2');
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
