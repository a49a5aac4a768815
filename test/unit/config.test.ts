import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig, metricsOnApiPort } from '../../cmd/shared/config';

/** cmd/shared/config.ts: the settings that guard webhooks and secrets, the client address and /metrics (docs/security.md). */
describe('config', () => {
  const KEY = crypto.randomBytes(32);
  const base = { JWT_SECRET: 'config-test-secret-0123456789abcdef0123456789', SECRETS_KEY: KEY.toString('base64') };
  const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'cf-config-'));
  const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

  describe('WEBHOOK_ALLOW_PRIVATE_URLS', () => {
    it('is off unless set to true, in every environment', () => {
      for (const APP_ENV of ['development', 'staging', 'production']) {
        expect(loadConfig({ ...base, APP_ENV }).allowPrivateWebhookUrls, APP_ENV).to.equal(false);
        expect(loadConfig({ ...base, APP_ENV, WEBHOOK_ALLOW_PRIVATE_URLS: 'false' }).allowPrivateWebhookUrls, APP_ENV).to.equal(false);
      }
      expect(loadConfig({ ...base, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }).allowPrivateWebhookUrls).to.equal(true);
      expect(loadConfig({ ...base, APP_ENV: 'staging', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }).allowPrivateWebhookUrls).to.equal(true);
    });

    it('is read strictly, and production refuses to start with it', () => {
      for (const value of ['yes', '1', 'TRUE', 'on']) {
        expect(() => loadConfig({ ...base, WEBHOOK_ALLOW_PRIVATE_URLS: value }), value).to.throw(/WEBHOOK_ALLOW_PRIVATE_URLS must be true or false/);
      }
      expect(() => loadConfig({ ...base, APP_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' })).to.throw(/refused in production/);
    });
  });

  describe('SECRETS_KEY / SECRETS_KEY_FILE', () => {
    it('reads one key, or several newest first (commas; one per line in the file), base64 or hex', () => {
      const other = crypto.randomBytes(32);
      expect(loadConfig(base).secretsKeys.map((k) => k.toString('hex'))).to.deep.equal([KEY.toString('hex')]);
      const two = loadConfig({ ...base, SECRETS_KEY: `${other.toString('hex')}, ${KEY.toString('base64')}` }).secretsKeys;
      expect(two.map((k) => k.toString('hex'))).to.deep.equal([other.toString('hex'), KEY.toString('hex')]);
      const dir = tmp();
      try {
        const file = path.join(dir, 'keys');
        fs.writeFileSync(file, `${other.toString('base64')}\n${KEY.toString('hex')}\n`);
        const fromFile = loadConfig({ JWT_SECRET: base.JWT_SECRET, SECRETS_KEY_FILE: file, APP_ENV: 'production' }).secretsKeys;
        expect(fromFile.map((k) => k.toString('hex'))).to.deep.equal([other.toString('hex'), KEY.toString('hex')]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('production refuses to start without one; a malformed key is refused without being repeated', () => {
      expect(() => loadConfig({ JWT_SECRET: base.JWT_SECRET, APP_ENV: 'production' })).to.throw(/SECRETS_KEY \(or SECRETS_KEY_FILE\) is required in production/);
      for (const bad of ['not-a-key', crypto.randomBytes(16).toString('base64'), `${KEY.toString('base64')},oops`]) {
        expect(() => loadConfig({ ...base, SECRETS_KEY: bad }), bad).to.throw(/SECRETS_KEY must hold 32 random bytes/);
        expect(() => loadConfig({ ...base, SECRETS_KEY: bad })).to.not.throw(new RegExp(bad.replace(/[+/=]/g, '.')));
      }
    });

    it('development generates one key once into DATA_DIR (0600, the directory 0700), with the JWT secret; every process reads the same', () => {
      const parent = tmp();
      try {
        const dataDir = path.join(parent, 'data');
        const first = loadConfig({ DATA_DIR: dataDir });
        const second = loadConfig({ DATA_DIR: dataDir });
        expect(first.secretsKeys).to.have.length(1);
        expect(first.secretsKeys[0]!.length).to.equal(32);
        expect(second.secretsKeys[0]!.equals(first.secretsKeys[0]!)).to.equal(true);
        expect(second.jwtSecret).to.equal(first.jwtSecret);
        expect(modeOf(dataDir)).to.equal(0o700);
        expect(modeOf(path.join(dataDir, 'secrets-key'))).to.equal(0o600);
        expect(modeOf(path.join(dataDir, 'jwt-secret'))).to.equal(0o600);
      } finally {
        fs.rmSync(parent, { recursive: true, force: true });
      }
    });
  });

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

  describe('shutdown and the queue console (docs/operations.md)', () => {
    it('SHUTDOWN_DELAY_MS defaults to 0 and must stay below SHUTDOWN_TIMEOUT_MS', () => {
      expect(loadConfig(base).shutdownDelayMs).to.equal(0);
      expect(loadConfig({ ...base, SHUTDOWN_DELAY_MS: '5000' }).shutdownDelayMs).to.equal(5000);
      expect(() => loadConfig({ ...base, SHUTDOWN_DELAY_MS: '25000' })).to.throw(/SHUTDOWN_DELAY_MS must be below SHUTDOWN_TIMEOUT_MS/);
      expect(() => loadConfig({ ...base, SHUTDOWN_DELAY_MS: '-1' })).to.throw(/SHUTDOWN_DELAY_MS must be a non-negative integer/);
    });

    it('QUEUE_CONSOLE_WRITE is off unless exactly true', () => {
      expect(loadConfig(base).queueConsoleWrite).to.equal(false);
      expect(loadConfig({ ...base, QUEUE_CONSOLE_WRITE: 'false' }).queueConsoleWrite).to.equal(false);
      expect(loadConfig({ ...base, QUEUE_CONSOLE_WRITE: 'true' }).queueConsoleWrite).to.equal(true);
      for (const value of ['yes', '1', 'TRUE']) expect(() => loadConfig({ ...base, QUEUE_CONSOLE_WRITE: value }), value).to.throw(/QUEUE_CONSOLE_WRITE must be true or false/);
    });

    it('BACKGROUND_JOB_DUTY_CYCLE defaults to 0.5 and takes a share above 0, at most 1', () => {
      expect(loadConfig(base).backgroundJobDutyCycle).to.equal(0.5);
      expect(loadConfig({ ...base, BACKGROUND_JOB_DUTY_CYCLE: '1' }).backgroundJobDutyCycle).to.equal(1);
      expect(loadConfig({ ...base, BACKGROUND_JOB_DUTY_CYCLE: '0.25' }).backgroundJobDutyCycle).to.equal(0.25);
      for (const value of ['0', '-0.5', 'half', '']) {
        expect(() => loadConfig({ ...base, BACKGROUND_JOB_DUTY_CYCLE: value }), value).to.throw(/BACKGROUND_JOB_DUTY_CYCLE must be a number above 0/);
      }
      expect(() => loadConfig({ ...base, BACKGROUND_JOB_DUTY_CYCLE: '1.5' })).to.throw(/BACKGROUND_JOB_DUTY_CYCLE must be above 0 and at most 1/);
    });
  });

  describe('DATABASE_READ_URL and REDIS_CLUSTER_NODES', () => {
    it('takes a replica only beside a MySQL or PostgreSQL primary of the same engine, with its lag and read-your-writes settings', () => {
      expect(loadConfig(base).databaseReadUrl).to.equal(null);
      const config = loadConfig({ ...base, DATABASE_URL: 'mysql://app@primary/c', DATABASE_READ_URL: 'mysql://app@replica/c', REPLICA_MAX_LAG_SECONDS: '10', READ_YOUR_WRITES_MS: '3000' });
      expect(config).to.include({ databaseReadUrl: 'mysql://app@replica/c', replicaMaxLagSeconds: 10, readYourWritesMs: 3000 });
      expect(loadConfig(base)).to.include({ replicaMaxLagSeconds: 5, readYourWritesMs: 5000 });
      expect(() => loadConfig({ ...base, DATABASE_READ_URL: 'mysql://app@replica/c' })).to.throw(/DATABASE_READ_URL needs mysql:\/\//);
      expect(loadConfig({ ...base, DATABASE_URL: 'postgres://app@primary/c', DATABASE_READ_URL: 'postgresql://app@standby/c' }).databaseReadUrl).to.equal('postgresql://app@standby/c');
      expect(() => loadConfig({ ...base, DATABASE_URL: 'postgres://app@primary/c', DATABASE_READ_URL: 'mysql://app@replica/c' })).to.throw(/same|postgres:\/\//);
    });

    it('REDIS_CLUSTER_NODES becomes the cluster target, never beside REDIS_URL', () => {
      expect(loadConfig({ ...base, REDIS_CLUSTER_NODES: 'a:7000,b:7001' }).redisUrl).to.equal('redis-cluster://a:7000,b:7001');
      expect(() => loadConfig({ ...base, REDIS_CLUSTER_NODES: 'a:7000', REDIS_URL: 'redis://r:6379' })).to.throw(/not both/);
    });
  });
});
