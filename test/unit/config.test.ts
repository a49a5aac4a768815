/** cmd/shared/config.ts: the security settings of issue 16 (docs/security.md). */
import { expect } from 'chai';
import { loadConfig, metricsOnApiPort } from '../../cmd/shared/config';

const base = { JWT_SECRET: 'unit-test-secret-long-enough-0123456789abcdef' };

describe('config', () => {
  it('TRUST_PROXY_HOPS: 0 unless set, a non-negative integer', () => {
    expect(loadConfig({ ...base }).trustProxyHops).to.equal(0);
    expect(loadConfig({ ...base, TRUST_PROXY_HOPS: '2' }).trustProxyHops).to.equal(2);
    for (const bad of ['-1', '1.5', 'one']) expect(() => loadConfig({ ...base, TRUST_PROXY_HOPS: bad }), bad).to.throw(/TRUST_PROXY_HOPS/);
  });

  it('serves /metrics on the API port outside production, and in production only with METRICS_TOKEN', () => {
    expect(metricsOnApiPort({ appEnv: 'development', metricsToken: null })).to.equal(true);
    expect(metricsOnApiPort({ appEnv: 'staging', metricsToken: null })).to.equal(true);
    expect(metricsOnApiPort({ appEnv: 'production', metricsToken: null })).to.equal(false);
    expect(metricsOnApiPort({ appEnv: 'production', metricsToken: 'token' })).to.equal(true);
    expect(metricsOnApiPort(loadConfig({ ...base, APP_ENV: 'production' }))).to.equal(false);
  });
});
