/**
 * BullMQ and the rate limiter on a Redis Cluster (REDIS_CLUSTER_NODES): a three-primary cluster
 * of the test's own on loopback (Debian's redis-server in cluster mode), the API (harness) and the
 * real worker process on it, MySQL for the data. Subscription generation, webhook delivery and
 * debit execution run through the cluster; the queue's keys share one hash slot (the prefix is a
 * hash tag), which BullMQ's multi-key scripts need.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { bullmqPrefix } from '../../adapters/redis/connection';
import { loadConfig } from '../../cmd/shared/config';
import { mysqlAvailable, REQUIRE_SERVICES } from '../support/databases';
import { DIRECT_DEBIT, directDebitApi, TODAY } from '../support/direct-debit-api';
import { type ApiHarness, startApi } from '../support/harness';
import { expectOk } from '../support/http-expect';
import { redisServerAvailable } from '../support/private-redis';
import { type PrivateRedisCluster, startPrivateRedisCluster } from '../support/redis-cluster';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { spawnSync } from 'node:child_process';

describe('Redis Cluster (REDIS_CLUSTER_NODES) [three primaries, worker process, mysql]', function () {
  this.timeout(120_000);
  let cluster: PrivateRedisCluster | null = null;
  let api: ApiHarness | null = null;
  let receiver: WebhookReceiver | null = null;

  before(async function () {
    const cli = spawnSync('redis-cli', ['--version']).status === 0;
    if (!cli && REQUIRE_SERVICES) throw new Error('CI=true and redis-cli is not installed');
    if (!redisServerAvailable() || !cli || !(await mysqlAvailable())) this.skip();
    cluster = await startPrivateRedisCluster();
    api = await startApi('mysql', { redisUrl: cluster.url, worker: true, webhooks: { retryDelays: '1s', dispatchEveryMs: 200 } });
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await receiver?.close();
    await api?.close();
    await cluster?.stop();
  });

  it('reads REDIS_CLUSTER_NODES, refuses it beside REDIS_URL, and hash-tags the queue prefix', () => {
    const base = { JWT_SECRET: 'cluster-test-secret-0123456789abcdef0123456789', SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') };
    expect(loadConfig({ ...base, REDIS_CLUSTER_NODES: '10.0.0.1:7000, 10.0.0.2:7000' }).redisUrl).to.equal('redis-cluster://10.0.0.1:7000,10.0.0.2:7000');
    expect(() => loadConfig({ ...base, REDIS_CLUSTER_NODES: '10.0.0.1:7000', REDIS_URL: 'redis://x:6379' })).to.throw(/not both/);
    expect(() => loadConfig({ ...base, REDIS_CLUSTER_NODES: '10.0.0.1' })).to.throw(/host:port/);
    expect(bullmqPrefix('redis-cluster://a:1', 'cf')).to.equal('{cf}');
    expect(bullmqPrefix('redis-cluster://a:1', '{cf}')).to.equal('{cf}');
    expect(bullmqPrefix('redis://a:1', 'cf')).to.equal('cf');
  });

  it('generates a subscription of 520 cycles, each once', async () => {
    const tenant = await api!.newTenant();
    const post = (path: string, body: object) => api!.http.post(path).set(tenant.headers).send(body);
    expectOk(await post('/contacts', { externalClientId: 'cluster-client', name: 'Cluster', email: 'cluster@example.com' }), 201);
    expectOk(await post('/subscriptions', { externalSubscriptionId: 'cluster-sub', externalClientId: 'cluster-client', amount: 10, intervalUnit: 'week', intervalCount: 1, startDate: '2031-01-06', totalCycles: 520, productName: 'Weekly' }), 201);
    await api!.drainJobs();
    const db = api!.infra.db!;
    const rows = await db('debts').where({ organization_id: tenant.organizationId }).whereNotNull('subscription_id').count({ n: '*' }).countDistinct({ d: 'external_request_id' });
    expect(rows[0]).to.deep.equal({ n: 520, d: 520 });
  });

  it('delivers a webhook, signed', async () => {
    const tenant = await api!.newTenant();
    const endpoint = expectOk(await api!.http.post('/webhook-endpoints').set(tenant.headers).send({ url: receiver!.url('/cluster'), enabledEvents: ['contact.created'] }), 201);
    receiver!.setSecret('/cluster', endpoint.secret as string);
    expectOk(await api!.http.post('/contacts').set(tenant.headers).send({ externalClientId: 'hooked', name: 'Hooked', email: 'hooked@example.com' }), 201);
    const [delivery] = await receiver!.waitFor('/cluster', (r) => r.length >= 1, 20_000);
    expect(delivery!.signatureValid).to.equal(true);
    expect(delivery!.body.type).to.equal('contact.created');
  });

  it('executes a direct debit due today (the debit job on the worker)', async () => {
    const dd = directDebitApi(() => api!);
    const { t, productId } = await dd.tenant(DIRECT_DEBIT);
    expectOk(await dd.register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
    const debt = expectOk(await dd.v2(t, dd.debtOf(productId, { dueDate: TODAY })), 201);
    await dd.runDebitJob();
    expect(await dd.settled(t, debt.debtId as string)).to.deep.include({ status: 'PAID', amountPaid: 150 });
    expect(await dd.attempts(t, debt.externalRequestId as string)).to.deep.equal([[1, 'SUCCEEDED', null, null]]);
  });

  it("keeps every key of the queue in one hash slot, on one node", async () => {
    const tagged = `{${api!.queuePrefix}}:collections:`;
    const owners: number[] = [];
    for (const port of cluster!.ports) {
      const node = new Redis(port, '127.0.0.1');
      try {
        const keys = await node.keys(`${tagged}*`);
        if (keys.length > 0) owners.push(port);
        for (const key of keys.slice(0, 20)) expect(key.startsWith(tagged)).to.equal(true);
      } finally {
        node.disconnect();
      }
    }
    expect(owners, 'nodes holding the queue').to.have.length(1);
  });
});
