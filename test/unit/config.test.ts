import { expect } from 'chai';
import { loadConfig } from '../../cmd/shared/config';

/** cmd/shared/config.ts: the settings that guard webhooks and secrets. */
describe('config', () => {
  const base = { JWT_SECRET: 'config-test-secret-0123456789abcdef0123456789' };

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
});
