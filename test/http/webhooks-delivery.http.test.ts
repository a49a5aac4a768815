import { expect } from 'chai';
import { computeSignature, verifySignature } from '../../adapters/webhooks/signature';
import { expectNotFound, expectOk, expectRuleViolation } from '../support/http-expect';
import { describeEachDatabase, type Tenant } from '../support/harness';
import { type ReceivedWebhook, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * Webhooks end to end: changes through the HTTP API, delivered by the workers to a real HTTP
 * receiver that verifies every signature and answers what the test scripts. On SQLite and MySQL
 * the jobs and the dispatch run in the API process (the embedded default); on MySQL + Redis in a
 * worker process of its own. A short retry schedule stands in for the three-day one.
 */

const RETRY_DELAYS = '300ms,300ms,300ms,300ms';

let receiver: WebhookReceiver;
before(async () => {
  receiver = await startWebhookReceiver();
});
after(async () => {
  await receiver?.close();
});

let paths = 0;

describeEachDatabase(
  'webhook delivery',
  ({ api }) => {
    const http = () => api().http;

    /** An endpoint posting to a receiver path of its own, whose secret the receiver verifies with. */
    async function endpoint(t: Tenant, enabledEvents: string[] = ['*']): Promise<{ id: string; path: string }> {
      const path = `/${api().kind}-${++paths}`;
      const data = expectOk(await http().post('/webhook-endpoints').set(t.headers).send({ url: receiver.url(path), enabledEvents }), 201);
      receiver.setSecret(path, data.secret);
      return { id: data.webhookEndpointId, path };
    }

    const typesOf = (got: ReceivedWebhook[]) => got.map((r) => r.body.type as string);
    const eventsOf = async (t: Tenant, query: Record<string, string> = {}) => expectOk(await http().get('/events').set(t.headers).query({ limit: 500, ...query }));

    it("delivers every event of a debt's life, signed, the debt's in order, each body the event object GET /events/{id} shows", async () => {
      const t = await api().newTenant();
      const hook = await endpoint(t);
      expectOk(await http().post('/contacts').set(t.headers).send({ externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }), 201);
      expectOk(await http().post('/v2/debts').set(t.headers).set('Idempotency-Key', 'order-1').send({ externalClientId: 'ana', amount: 100, dueDate: '2099-12-31' }), 201);
      expectOk(await http().patch('/debts/debt_order-1').set(t.headers).send({ amount: 150 }));
      expectOk(await http().post('/test-helpers/debts/debt_order-1/pay').set(t.headers).send({ amount: 50 }), 201);
      expectOk(await http().post('/test-helpers/debts/debt_order-1/pay').set(t.headers).send({}), 201);

      const got = await receiver.waitFor(hook.path, (r) => r.length === 5);
      // Order is kept per resource: the contact's event may come before or after the debt's.
      const debt = got.filter((r) => r.body.data.object.debtId === 'debt_order-1');
      expect(typesOf(debt)).to.deep.equal(['debt.created', 'debt.updated', 'debt.partially_paid', 'debt.paid']);
      expect(debt.map((r) => r.body.data.object.status)).to.deep.equal(['PENDING', 'PENDING', 'PARTIALLY_PAID', 'PAID']);
      expect(typesOf(got).filter((type) => type === 'contact.created')).to.have.length(1);
      expect(got.every((r) => r.signatureValid), 'every signature verifies').to.equal(true);
      expect(got.map((r) => r.headers['x-event-id'])).to.deep.equal(got.map((r) => r.body.eventId));

      // GET /events: newest first, in the order the changes were made.
      const listed = await eventsOf(t);
      const byType = new Map(got.map((r) => [r.body.type as string, r.body.eventId as string]));
      const written = ['contact.created', 'debt.created', 'debt.updated', 'debt.partially_paid', 'debt.paid'];
      expect(listed.map((e: { eventId: string }) => e.eventId)).to.deep.equal(written.map((type) => byType.get(type)).reverse());
      for (const delivered of got) {
        const { deliveries, ...event } = expectOk(await http().get(`/events/${delivered.body.eventId}`).set(t.headers));
        expect(event).to.deep.equal(delivered.body);
        expect(deliveries).to.have.length(1);
      }
      const detail = await waitForDelivery(t, byType.get('debt.paid')!, (d) => d.status === 'SUCCEEDED');
      expect(detail.deliveries[0]).to.deep.include({ webhookEndpointId: hook.id, url: receiver.url(hook.path), nextAttemptAt: null });
    });

    it('retries after 500s until a 2xx; the receiver sees the same eventId each time (deduplicable); the attempts are readable', async () => {
      const t = await api().newTenant();
      const hook = await endpoint(t, ['product.created']);
      receiver.script(hook.path, [500, 500, 500]);
      expectOk(await http().post('/products').set(t.headers).send({ name: 'Gym plan' }), 201);

      const got = await receiver.waitFor(hook.path, (r) => r.some((x) => x.answered === 200));
      expect(got.map((r) => r.answered)).to.deep.equal([500, 500, 500, 200]);
      expect(got.every((r) => r.signatureValid)).to.equal(true);
      const eventIds = new Set(got.map((r) => r.body.eventId));
      expect(eventIds.size, 'one event, four deliveries').to.equal(1);
      for (let i = 1; i < got.length; i++) expect(got[i]!.at - got[i - 1]!.at, 'the schedule waits between attempts').to.be.at.least(250);

      const [eventId] = [...eventIds];
      const detail = await waitForDelivery(t, eventId!, (d) => d.status === 'SUCCEEDED');
      expect(detail.deliveries).to.have.length(1);
      const [delivery] = detail.deliveries;
      expect(delivery).to.deep.include({ webhookEndpointId: hook.id, status: 'SUCCEEDED', nextAttemptAt: null });
      expect(delivery.attempts.map((a: Record<string, unknown>) => [a.attempt, a.statusCode, a.error, a.succeeded])).to.deep.equal([
        [1, 500, 'http_status', false],
        [2, 500, 'http_status', false],
        [3, 500, 'http_status', false],
        [4, 200, null, true],
      ]);
      for (const a of delivery.attempts) {
        expect(a.attemptedAt).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(a.durationMs).to.be.a('number').and.at.least(0);
      }
    });

    it("keeps a resource's order: its next event waits until the failed one went through", async () => {
      const t = await api().newTenant();
      const hook = await endpoint(t, ['debt.created', 'debt.paid']);
      receiver.script(hook.path, [500]);
      expectOk(await http().post('/contacts').set(t.headers).send({ externalClientId: 'bo', name: 'Bo', email: 'bo@example.com' }), 201);
      expectOk(await http().post('/v2/debts').set(t.headers).set('Idempotency-Key', 'o-1').send({ externalClientId: 'bo', amount: 10, dueDate: '2099-12-31' }), 201);
      expectOk(await http().post('/test-helpers/debts/debt_o-1/pay').set(t.headers).send({}), 201);
      const got = await receiver.waitFor(hook.path, (r) => typesOf(r).includes('debt.paid'));
      expect(got.map((r) => [r.body.type, r.answered])).to.deep.equal([
        ['debt.created', 500],
        ['debt.created', 200],
        ['debt.paid', 200],
      ]);
    });

    it('sends nothing to a disabled endpoint or for types it does not subscribe to', async () => {
      const t = await api().newTenant();
      const on = await endpoint(t, ['contact.created']);
      const off = await endpoint(t);
      const other = await endpoint(t, ['debt.paid']);
      expectOk(await http().patch(`/webhook-endpoints/${off.id}`).set(t.headers).send({ enabled: false }));
      expectOk(await http().post('/contacts').set(t.headers).send({ externalClientId: 'cy', name: 'Cy', email: 'cy@example.com' }), 201);
      const [got] = await receiver.waitFor(on.path, (r) => r.length === 1);
      const detail = expectOk(await http().get(`/events/${got!.body.eventId}`).set(t.headers));
      expect(detail.deliveries.map((d: { webhookEndpointId: string }) => d.webhookEndpointId)).to.deep.equal([on.id]);
      expect(receiver.received(off.path)).to.deep.equal([]);
      expect(receiver.received(other.path)).to.deep.equal([]);
    });

    it('POST /events/{id}/redeliver: 202 with the deliveries scheduled; the receiver gets the same eventId again', async () => {
      const t = await api().newTenant();
      const hook = await endpoint(t, ['contact.created']);
      expectOk(await http().post('/contacts').set(t.headers).send({ externalClientId: 'di', name: 'Di', email: 'di@example.com' }), 201);
      const [first] = await receiver.waitFor(hook.path, (r) => r.length === 1);
      const eventId = first!.body.eventId as string;
      await waitForDelivery(t, eventId, (d) => d.status === 'SUCCEEDED');

      const res = await http().post(`/events/${eventId}/redeliver`).set(t.headers);
      const answer = expectOk(res, 202);
      expect(answer.eventId).to.equal(eventId);
      expect(answer.deliveries).to.have.length(1);
      expect(answer.deliveries[0]).to.deep.include({ webhookEndpointId: hook.id, status: 'PENDING' });
      expect(answer.deliveries[0].nextAttemptAt).to.be.a('string');

      const got = await receiver.waitFor(hook.path, (r) => r.length === 2);
      expect(got.map((r) => r.body.eventId)).to.deep.equal([eventId, eventId]);
      expect(got[1]!.raw).to.equal(got[0]!.raw);
      expect(got[1]!.signatureValid).to.equal(true);
      const detail = await waitForDelivery(t, eventId, (d) => d.status === 'SUCCEEDED' && d.attempts.length === 2);
      expect(detail.deliveries[0].attempts.map((a: { attempt: number }) => a.attempt)).to.deep.equal([1, 2]);

      const stranger = await api().newTenant();
      expectNotFound(await http().post(`/events/${eventId}/redeliver`).set(stranger.headers));
      expectNotFound(await http().post('/events/evt_unknown/redeliver').set(t.headers));
      expectOk(await http().delete(`/webhook-endpoints/${hook.id}`).set(t.headers));
      expectRuleViolation(await http().post(`/events/${eventId}/redeliver`).set(t.headers));
    });

    it('POST /webhook-endpoints/{id}/test: a signed webhook.test event now, the endpoint as GET shows it; 200 with what happened; not in GET /events, not retried', async () => {
      const t = await api().newTenant();
      const hook = await endpoint(t, ['debt.paid']);
      const before = Date.now();
      const answer = expectOk(await http().post(`/webhook-endpoints/${hook.id}/test`).set(t.headers));
      expect(answer).to.have.keys('eventId', 'type', 'webhookEndpointId', 'delivered', 'statusCode', 'durationMs', 'error');
      expect(answer).to.deep.include({ type: 'webhook.test', webhookEndpointId: hook.id, delivered: true, statusCode: 200, error: null });
      expect(answer.eventId).to.match(/^evt_[A-Za-z0-9]{24}$/);
      expect(answer.durationMs).to.be.a('number').and.at.least(0);
      // Synchronous: the receiver has it when the answer comes.
      const [got] = receiver.received(hook.path);
      expect(got!.signatureValid).to.equal(true);
      expect(got!.headers['x-event-id']).to.equal(answer.eventId);
      expect(got!.body).to.have.keys('eventId', 'type', 'createdAt', 'companyCode', 'data', 'requestId');
      expect(got!.body).to.deep.include({ eventId: answer.eventId, type: 'webhook.test', companyCode: t.companyCodes[0] });
      expect(Date.parse(got!.body.createdAt)).to.be.at.least(before - 1000);
      expect(got!.body.requestId).to.match(/^req_/);
      expect(got!.body.data.object).to.deep.equal(expectOk(await http().get(`/webhook-endpoints/${hook.id}`).set(t.headers)));

      receiver.script(hook.path, [500]);
      expect(expectOk(await http().post(`/webhook-endpoints/${hook.id}/test`).set(t.headers))).to.deep.include({ delivered: false, statusCode: 500, error: 'http_status' });
      // A disabled endpoint is sent to as well: the operator asked for this one send.
      expectOk(await http().patch(`/webhook-endpoints/${hook.id}`).set(t.headers).send({ enabled: false }));
      expect(expectOk(await http().post(`/webhook-endpoints/${hook.id}/test`).set(t.headers)).delivered).to.equal(true);
      expect(receiver.received(hook.path).at(-1)!.body.data.object.enabled).to.equal(false);

      expect(await eventsOf(t)).to.deep.equal([]);
      expectNotFound(await http().get(`/events/${answer.eventId}`).set(t.headers));
      await new Promise((resolve) => setTimeout(resolve, 800)); // beyond the first retry delay: nothing comes again
      expect(receiver.received(hook.path)).to.have.length(3);
    });

    it('rotate-secret: every delivery then carries two v1 (new, old) until the grace period ends; a pending retry is signed with the secrets of its own attempt', async () => {
      const t = await api().newTenant();
      const path = `/${api().kind}-${++paths}`;
      const created = expectOk(await http().post('/webhook-endpoints').set(t.headers).send({ url: receiver.url(path), enabledEvents: ['contact.created'] }), 201);
      const id = created.webhookEndpointId as string;
      const oldSecret = created.secret as string;
      const oneV1 = /^t=\d+,v1=[0-9a-f]{64}$/;
      const twoV1 = /^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/;
      const verifies = (secret: string, r: ReceivedWebhook) => verifySignature(r.headers['x-signature'] as string, secret, r.raw, { nowSeconds: Math.floor(Date.now() / 1000) });
      receiver.setSecret(path, oldSecret);
      receiver.script(path, [500, 500, 500]);
      expectOk(await http().post('/contacts').set(t.headers).send({ externalClientId: 'rot', name: 'Rot', email: 'rot@example.com' }), 201);
      const [first] = await receiver.waitFor(path, (r) => r.length === 1);
      expect(first!.headers['x-signature']).to.match(oneV1);

      // Rotated while the event waits for its retries: the attempts after it carry both signatures.
      const rotated = expectOk(await http().post(`/webhook-endpoints/${id}/rotate-secret`).set(t.headers).send({ expiresInHours: 1 }));
      const rotatedAt = Date.now();
      // An attempt arriving well after the answer read the endpoint after the rotation committed.
      const got = await receiver.waitFor(path, (r) => r.some((x) => x.answered === 200));
      const after = got.filter((r) => r.at > rotatedAt + 150);
      expect(after.length, 'attempts after the rotation').to.be.at.least(1);
      for (const retry of after) {
        expect(retry.body.eventId).to.equal(first!.body.eventId);
        expect(retry.headers['x-signature']).to.match(twoV1);
        expect(verifies(oldSecret, retry), 'a receiver still on the old secret').to.equal(true);
        expect(verifies(rotated.secret, retry), 'a receiver already on the new secret').to.equal(true);
        const header = retry.headers['x-signature'] as string;
        const ts = Number(/^t=(\d+)/.exec(header)![1]);
        expect(header.split(',').slice(1), 'the new secret first').to.deep.equal([`v1=${computeSignature(rotated.secret, ts, retry.raw)}`, `v1=${computeSignature(oldSecret, ts, retry.raw)}`]);
      }

      // A test event is signed the same way; a rotation with 0 hours stops the older secrets at once.
      expectOk(await http().post(`/webhook-endpoints/${id}/test`).set(t.headers));
      const test = receiver.received(path).filter((r) => r.body.type === 'webhook.test');
      expect(test.map((r) => twoV1.test(r.headers['x-signature'] as string))).to.deep.equal([true]);
      const immediate = expectOk(await http().post(`/webhook-endpoints/${id}/rotate-secret`).set(t.headers).send({ expiresInHours: 0 }));
      expect(immediate.previousSecretExpiresAt).to.equal(null);
      receiver.setSecret(path, immediate.secret);
      expectOk(await http().post('/contacts').set(t.headers).send({ externalClientId: 'rot2', name: 'Rot Two', email: 'rot2@example.com' }), 201);
      const last = (await receiver.waitFor(path, (r) => r.some((x) => x.body.data?.object?.externalClientId === 'rot2'))).at(-1)!;
      expect(last.headers['x-signature']).to.match(oneV1);
      expect(last.signatureValid).to.equal(true);
      expect(verifies(rotated.secret, last)).to.equal(false);
      expect(verifies(oldSecret, last)).to.equal(false);
    });

    it('attempt errors are classes: a refused connection reads connection_refused in GET /events/{id}, with no address or port', async () => {
      const t = await api().newTenant();
      const created = expectOk(await http().post('/webhook-endpoints').set(t.headers).send({ url: 'http://127.0.0.1:9/closed', enabledEvents: ['contact.created'] }), 201);
      expectOk(await http().post('/contacts').set(t.headers).send({ externalClientId: 'cls', name: 'Cls', email: 'cls@example.com' }), 201);
      const [event] = (await eventsOf(t, { type: 'contact.created' })) as { eventId: string }[];
      const detail = await waitForDelivery(t, event.eventId, (d) => d.attempts.length >= 1);
      expect(detail.deliveries[0].webhookEndpointId).to.equal(created.webhookEndpointId);
      expect(detail.deliveries[0].attempts[0]).to.deep.include({ statusCode: null, error: 'connection_refused', succeeded: false });
      // Every text of the attempts (numbers left out: a durationMs of 9 is no port).
      const texts = JSON.stringify(detail.deliveries[0].attempts, (_key, value) => (typeof value === 'number' ? undefined : value));
      expect(texts).to.not.match(/127\.0\.0\.1|ECONNREFUSED|:9\b/);
    });

    /** Polls GET /events/{id} until its first delivery satisfies `done`. */
    async function waitForDelivery(t: Tenant, eventId: string, done: (delivery: Record<string, any>) => boolean): Promise<Record<string, any>> {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const detail = expectOk(await http().get(`/events/${eventId}`).set(t.headers));
        if (detail.deliveries[0] && done(detail.deliveries[0])) return detail;
        if (Date.now() > deadline) throw new Error(`delivery of ${eventId} not done: ${JSON.stringify(detail.deliveries)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  },
  { withWorker: true, webhooks: { retryDelays: RETRY_DELAYS, dispatchEveryMs: 100 } },
);
