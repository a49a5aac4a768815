import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { knexRepositories } from '../../adapters/persistence/knex/knex-unit-of-work';
import { resealWebhookSecrets } from '../../adapters/persistence/knex/knex-webhook-endpoint-repository';
import { AesGcmSecretBox, secretsKeyId } from '../../adapters/security/aes-gcm-secret-box';
import { newDelivery } from '../../internal/webhooks/delivery';
import type { SecretBox } from '../../ports/secret-box';
import type { Repositories } from '../../ports/unit-of-work';
import type { NewWebhookEndpoint } from '../../ports/webhook-endpoint-repository';
import { createTestDatabase, DATABASE_KINDS, databaseAvailable, type TestDatabase } from '../support/databases';
import { testEventWriting } from '../support/event-writing';
import { newProduct, newTenant, productEvent, T1, type TenantFixture, uid } from './fixtures';

/**
 * What the database holds, on SQLite and MySQL (the memory adapter keeps nothing at rest): the
 * webhook signing secrets are ciphertext naming their key; rows from before encryption still
 * read and are encrypted by the reseal that follows migrations; keys rotate; attempts recorded
 * before errors were classes read as classes.
 */
const KEY_A = crypto.randomBytes(32);
const KEY_B = crypto.randomBytes(32);
const boxOf = (...keys: Buffer[]) => new AesGcmSecretBox(keys);
const SECRET = 'whsec_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const PREVIOUS = 'whsec_ZyXwVuTsRqPoNmLkJiHgFeDcBa987654';

for (const kind of DATABASE_KINDS) {
  describe(`webhook storage at rest [${kind}]`, function () {
    this.timeout(30_000);
    let database: TestDatabase | null = null;
    let db: Knex;
    const reposWith = (box: SecretBox): Repositories => knexRepositories(db, { events: testEventWriting(), secrets: box });

    before(async function () {
      if (!(await databaseAvailable(kind))) this.skip();
      database = await createTestDatabase(kind);
      db = openKnex(database.url);
      await migrateLatest(db);
    });
    after(async () => {
      if (!database) return;
      await db.destroy();
      await database.drop();
    });

    const endpointInput = (t: TenantFixture, overrides: Partial<NewWebhookEndpoint> = {}): NewWebhookEndpoint => ({
      organizationId: t.organization.id,
      companyId: t.company.id,
      code: `e${uid()}`,
      url: 'https://hooks.example.com/in',
      enabledEvents: ['*'],
      enabled: true,
      description: null,
      secret: SECRET,
      previousSecret: null,
      previousSecretExpiresAt: null,
      sinceEventRowId: 0,
      createdAt: T1,
      updatedAt: T1,
      ...overrides,
    });
    const rowOf = async (id: number) => (await db('webhook_endpoints').where({ id }).first()) as { secret: string; previous_secret: string | null; code: string };

    it('stores the secret and the previous secret as AES-GCM ciphertext naming the key, a fresh IV each time; reads give the plaintext', async () => {
      const repos = reposWith(boxOf(KEY_A));
      const t = await newTenant(repos);
      const e = await repos.webhookEndpoints.insert(endpointInput(t, { previousSecret: PREVIOUS, previousSecretExpiresAt: T1 }));
      const twin = await repos.webhookEndpoints.insert(endpointInput(t));
      const row = await rowOf(e.id);
      for (const stored of [row.secret, row.previous_secret!]) {
        expect(stored).to.match(new RegExp(`^enc:v1:${secretsKeyId(KEY_A)}:[A-Za-z0-9_-]+$`));
        expect(stored).to.not.include('whsec_');
      }
      expect((await rowOf(twin.id)).secret, 'the same secret twice: two ciphertexts').to.not.equal(row.secret);
      expect(await repos.webhookEndpoints.findByCode(t.company.id, e.code)).to.deep.include({ secret: SECRET, previousSecret: PREVIOUS });
      await repos.webhookEndpoints.update(t.company.id, e.id, { secret: PREVIOUS, previousSecret: SECRET, previousSecretExpiresAt: T1, updatedAt: T1 });
      const rotated = await rowOf(e.id);
      expect([rotated.secret, rotated.previous_secret].every((v) => v!.startsWith('enc:v1:'))).to.equal(true);
      expect(JSON.stringify(await db('webhook_endpoints').where({ company_id: t.company.id }))).to.not.include('whsec_');
    });

    it('a ciphertext moved to another endpoint does not open (bound to its row); an unknown key or an altered value fails without showing it', async () => {
      const repos = reposWith(boxOf(KEY_A));
      const t = await newTenant(repos);
      const a = await repos.webhookEndpoints.insert(endpointInput(t));
      const b = await repos.webhookEndpoints.insert(endpointInput(t, { secret: PREVIOUS }));
      const stolen = (await rowOf(a.id)).secret;
      const own = (await rowOf(b.id)).secret;
      await db('webhook_endpoints').where({ id: b.id }).update({ secret: stolen });
      const moved = await repos.webhookEndpoints.findByCode(t.company.id, b.code).then(() => null, (error: Error) => error);
      expect(moved?.message).to.match(/does not authenticate/);
      const altered = stolen.slice(0, -2) + (stolen.endsWith('AA') ? 'BB' : 'AA');
      await db('webhook_endpoints').where({ id: a.id }).update({ secret: altered });
      expect((await repos.webhookEndpoints.findByCode(t.company.id, a.code).then(() => null, (error: Error) => error))?.message).to.match(/does not authenticate/);
      await db('webhook_endpoints').where({ id: a.id }).update({ secret: stolen });
      const withoutKey = await reposWith(boxOf(KEY_B)).webhookEndpoints.findByCode(t.company.id, a.code).then(() => null, (error: Error) => error);
      expect(withoutKey?.message).to.equal(`a stored secret is sealed with key ${secretsKeyId(KEY_A)}, which is not loaded (SECRETS_KEY)`);
      expect(withoutKey?.message).to.not.include(stolen.split(':')[3]!);
      // The reseal leaves an altered value alone (it fails where it is used) rather than stopping.
      await db('webhook_endpoints').where({ id: a.id }).update({ secret: altered });
      await resealWebhookSecrets(db, boxOf(KEY_B, KEY_A));
      expect((await rowOf(a.id)).secret).to.equal(altered);
      await db('webhook_endpoints').where({ id: a.id }).update({ secret: stolen });
      await db('webhook_endpoints').where({ id: b.id }).update({ secret: own });
    });

    it('a plaintext row from before encryption still reads; the reseal after migrations encrypts it (and the previous secret), then finds nothing more to do', async () => {
      // The keys the previous test left the table under: KEY_B first, KEY_A still loaded.
      const repos = reposWith(boxOf(KEY_B, KEY_A));
      const t = await newTenant(repos);
      const e = await repos.webhookEndpoints.insert(endpointInput(t));
      // As the previous version left it: the secret in clear.
      await db('webhook_endpoints').where({ id: e.id }).update({ secret: SECRET, previous_secret: PREVIOUS, previous_secret_expires_at: T1.getTime() });
      expect(await repos.webhookEndpoints.findByCode(t.company.id, e.code)).to.deep.include({ secret: SECRET, previousSecret: PREVIOUS });
      // A plaintext that is not a whsec_ secret is refused rather than used.
      const odd = await repos.webhookEndpoints.insert(endpointInput(t));
      await db('webhook_endpoints').where({ id: odd.id }).update({ secret: 'not-a-secret' });
      expect(await repos.webhookEndpoints.findByCode(t.company.id, odd.code).then(() => null, (error: Error) => error)).to.be.instanceOf(Error);
      await db('webhook_endpoints').where({ id: odd.id }).delete();

      expect(await resealWebhookSecrets(db, boxOf(KEY_B, KEY_A))).to.be.at.least(2);
      const row = await rowOf(e.id);
      expect(row.secret).to.match(/^enc:v1:/);
      expect(row.previous_secret).to.match(/^enc:v1:/);
      expect(await repos.webhookEndpoints.findByCode(t.company.id, e.code)).to.deep.include({ secret: SECRET, previousSecret: PREVIOUS });
      expect(await resealWebhookSecrets(db, boxOf(KEY_B, KEY_A))).to.equal(0);
    });

    it('key rotation: with SECRETS_KEY=<new>,<old> both read and the reseal moves every secret to the new key; then the old key can go', async () => {
      const t = await newTenant(reposWith(boxOf(KEY_A)));
      const e = await reposWith(boxOf(KEY_A)).webhookEndpoints.insert(endpointInput(t, { previousSecret: PREVIOUS, previousSecretExpiresAt: T1 }));
      const both = reposWith(boxOf(KEY_B, KEY_A));
      expect(await both.webhookEndpoints.findByCode(t.company.id, e.code)).to.deep.include({ secret: SECRET, previousSecret: PREVIOUS });
      const fresh = await both.webhookEndpoints.insert(endpointInput(t));
      expect((await rowOf(fresh.id)).secret, 'the first key seals').to.include(`:${secretsKeyId(KEY_B)}:`);
      expect(await resealWebhookSecrets(db, boxOf(KEY_B, KEY_A))).to.be.at.least(2);
      const row = await rowOf(e.id);
      expect([row.secret, row.previous_secret].every((v) => v!.includes(`:${secretsKeyId(KEY_B)}:`))).to.equal(true);
      // Every row of the table, whichever test wrote it, now opens with the new key alone.
      const newOnly = reposWith(boxOf(KEY_B));
      expect(await newOnly.webhookEndpoints.findByCode(t.company.id, e.code)).to.deep.include({ secret: SECRET, previousSecret: PREVIOUS });
      const everyId = (await db('webhook_endpoints').select('id')).map((r: { id: number }) => Number(r.id));
      expect(await newOnly.webhookEndpoints.findByIds(everyId)).to.have.length(everyId.length);
      // Dropping the key that seals them stops the reseal (and so the start) with what to do.
      const stopped = await resealWebhookSecrets(db, boxOf(KEY_A)).then(() => null, (error: Error) => error);
      expect(stopped?.message).to.match(/sealed with a key SECRETS_KEY no longer holds; add it back/);
    });

    it('attempts recorded before errors were classes (raw transport messages, no error beside a status) read as classes', async () => {
      const repos = reposWith(boxOf(KEY_B));
      const t = await newTenant(repos);
      const product = await repos.products.insert(newProduct(t.company));
      const before = await repos.events.lastId();
      await repos.events.append([productEvent(t, product, 'product.created')]);
      const [event] = await repos.events.headersAfter(before, 10);
      const endpoint = await repos.webhookEndpoints.insert(endpointInput(t));
      await repos.webhookDeliveries.insertMissing([newDelivery({ rowId: event!.id, companyId: t.company.id, resourceId: event!.resourceId }, endpoint.id, T1)]);
      const [{ delivery }] = await repos.webhookDeliveries.ofEvent(event!.id);
      const legacy: [number | null, string | null, boolean][] = [
        [null, 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9', false],
        [null, 'timed out after 10000 ms', false],
        [null, 'refused: private address', false],
        [null, 'ENOTFOUND: getaddrinfo ENOTFOUND internal.corp', false],
        [503, null, false],
        [200, null, true],
      ];
      await db('webhook_delivery_attempts').insert(
        legacy.map(([statusCode, error, succeeded], i) => ({ delivery_id: delivery.id, attempt: i + 1, attempted_at: T1.getTime(), status_code: statusCode, error, duration_ms: 5, succeeded })),
      );
      const [{ attempts }] = await repos.webhookDeliveries.ofEvent(event!.id);
      expect(attempts.map((a) => a.error)).to.deep.equal(['connection_refused', 'timeout', 'blocked_address', 'dns_error', 'http_status', null]);
    });
  });
}

describe('the SQLite file is owner-only', () => {
  const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

  it('openKnex creates its directory 0700 and the file 0600 (and SQLite its -wal and -shm alike); a file readable by others is narrowed to 0600', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-perm-'));
    try {
      const file = path.join(parent, 'nested', 'data', 'db.sqlite');
      const db = openKnex(`sqlite:${file}`);
      try {
        await migrateLatest(db);
        expect(modeOf(path.dirname(file))).to.equal(0o700);
        expect(modeOf(path.join(parent, 'nested'))).to.equal(0o700);
        for (const name of [file, `${file}-wal`, `${file}-shm`].filter((f) => fs.existsSync(f))) expect(modeOf(name), name).to.equal(0o600);
      } finally {
        await db.destroy();
      }
      const old = path.join(parent, 'old.sqlite');
      fs.writeFileSync(old, '', { mode: 0o644 });
      fs.chmodSync(old, 0o644);
      const again = openKnex(`sqlite:${old}`);
      try {
        await again.raw('select 1');
        expect(modeOf(old)).to.equal(0o600);
      } finally {
        await again.destroy();
      }
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
