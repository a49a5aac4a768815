import { expect } from 'chai';
import { webhookTestEvents } from '../../../adapters/events/event-renderer';
import { RandomIdGenerator } from '../../../adapters/ids/random-id-generator';
import type { DebtDraft } from '../../../internal/debts/debt-draft';
import { BusinessRuleViolationError, InvalidRequestError, NotFoundError } from '../../../internal/shared/errors';
import type { TenantScope } from '../../../internal/shared/tenant-scope';
import { DELIVERY_LEASE_MS, deliverJob } from '../../../internal/webhooks/jobs/dispatch-webhooks';
import { MAX_ENDPOINTS_PER_COMPANY, type WebhookEndpoint, webhookEndpointIdOf } from '../../../internal/webhooks/webhook-endpoint';
import type { Job, JobQueue } from '../../../ports/job-queue';
import type { WebhookRequest, WebhookResponse, WebhookSender } from '../../../ports/webhook-sender';
import { memoryWorld } from '../../support/memory-world';

/**
 * Fan-out, dispatch and delivery over the memory adapters, with the HTTP sender replaced by a
 * scripted one (failures injected) and time moved by the world clock: no real waiting.
 */

const T0 = new Date('2031-05-10T15:00:00.000Z');
const MINUTE = 60_000;

/** Answers from a script per url (then 200), recording every request. */
class ScriptedSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];
  private readonly scripts = new Map<string, (number | 'timeout')[]>();

  script(url: string, answers: (number | 'timeout')[]): void {
    this.scripts.set(url, [...answers]);
  }

  async send(request: WebhookRequest): Promise<WebhookResponse> {
    this.requests.push(request);
    const answer = this.scripts.get(request.url)?.shift() ?? 200;
    return answer === 'timeout' ? { statusCode: null, error: 'timeout', durationMs: 10_000 } : { statusCode: answer, error: null, durationMs: 12 };
  }

  to(url: string) {
    return this.requests.filter((r) => r.url === url).map((r) => JSON.parse(r.body) as { eventId: string; type: string; data: { object: Record<string, unknown> } });
  }
}

async function world(options: { retryDelaysMs?: number[]; queue?: JobQueue } = {}) {
  const sender = new ScriptedSender();
  const refused = new Set<string>();
  const w = memoryWorld(T0, {
    ports: {
      webhooks: {
        sender,
        urlPolicy: { check: async (url) => (refused.has(url) ? 'must not resolve to a private, loopback or link-local address' : null) },
        retryDelaysMs: options.retryDelaysMs ?? [MINUTE, 2 * MINUTE],
        testEvents: webhookTestEvents(new RandomIdGenerator()),
      },
      ...(options.queue ? { queue: options.queue } : {}),
    },
  });
  const { scope, scopes } = await w.newTenant({ companies: ['A', 'B'] });
  await w.app.commands.createContact.execute({ externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, scope);
  const draft: DebtDraft = { debtor: { externalClientId: 'ana' }, product: null, amountCents: 10_000, dueDate: '2031-05-20', evaluateAutopay: false };
  const endpoint = (url: string, enabledEvents: string[] = ['*'], s: TenantScope = scope) =>
    w.app.commands.createWebhookEndpoint.execute({ url, enabledEvents }, s);
  /** One dispatch (fan-out, hand-over) and every delivery job it started. */
  const dispatch = async () => {
    const run = await w.app.jobs.dispatchWebhooks.execute();
    await w.infra.jobs.inProcess!.drain();
    return run;
  };
  const event = async (type: string, s: TenantScope = scope) =>
    (await w.repos.events.list(s.company.id, { type: type as never }, { page: 1, limit: 1 })).items[0]!;
  const detail = async (type: string, s: TenantScope = scope) => w.app.queries.getEvent.execute((await event(type, s)).eventId, s);
  return { w, sender, refused, scope, other: scopes[1]!, draft, endpoint, dispatch, event, detail };
}

describe('webhooks: fan-out and delivery (memory)', () => {
  it("sends each event once to every enabled endpoint of its company subscribed to its type, with the event object as body, the endpoint's secret and the time to sign", async () => {
    const { w, sender, scope, other, draft, endpoint, dispatch, event } = await world();
    const all = await endpoint('https://a.example/hooks');
    await endpoint('https://b.example/paid', ['debt.paid']);
    const off = await endpoint('https://c.example/off');
    await w.app.commands.updateWebhookEndpoint.execute(webhookEndpointIdOf(off), { enabled: false }, scope);
    await endpoint('https://other.example/hooks', ['*'], other);

    await w.app.commands.createDebt.execute(draft, 'd-1', scope);
    await w.app.commands.payDebt.execute('d-1', undefined, 'test-helper', scope);
    await dispatch();
    await dispatch();

    expect(sender.to('https://a.example/hooks').map((e) => e.type)).to.deep.equal(['debt.created', 'debt.paid']);
    expect(sender.to('https://b.example/paid').map((e) => e.type)).to.deep.equal(['debt.paid']);
    expect(sender.to('https://c.example/off')).to.deep.equal([]);
    expect(sender.to('https://other.example/hooks')).to.deep.equal([]);

    const paid = await event('debt.paid');
    const request = sender.requests.find((r) => r.url === 'https://a.example/hooks' && r.eventId === paid.eventId)!;
    expect(JSON.parse(request.body)).to.deep.equal(paid.payload);
    expect(request.secrets).to.deep.equal([all.secret]);
    expect(all.secret).to.match(/^whsec_[A-Za-z0-9]{32}$/);
    expect(request.timestamp).to.equal(Math.floor(w.clock.now().getTime() / 1000));
  });

  it('an endpoint receives only the events written after it was created', async () => {
    const { w, sender, scope, draft, endpoint, dispatch } = await world();
    await w.app.commands.createDebt.execute(draft, 'before', scope);
    await endpoint('https://late.example/hooks');
    await w.app.commands.createDebt.execute(draft, 'after', scope);
    await dispatch();
    expect(sender.to('https://late.example/hooks').map((e) => e.data.object.debtId)).to.deep.equal(['debt_after']);
  });

  it('while no endpoint exists a turn only moves the cursor; an endpoint created then gets the later events', async () => {
    const { w, sender, scope, draft, endpoint, dispatch } = await world();
    await w.app.commands.createDebt.execute(draft, 'd-0', scope);
    expect(await w.app.jobs.fanOutEvents.execute()).to.deep.equal({ events: 0, deliveries: 0, more: false });
    expect((await w.uow.run((tx) => tx.webhookDeliveries.lockCursor()))!.lastRowId).to.equal(await w.repos.events.lastId());
    const hook = await endpoint('https://first.example/hooks');
    await w.app.commands.updateWebhookEndpoint.execute(webhookEndpointIdOf(hook), { enabled: false }, scope);
    await w.app.commands.createDebt.execute(draft, 'd-1', scope);
    await dispatch();
    await w.app.commands.updateWebhookEndpoint.execute(webhookEndpointIdOf(hook), { enabled: true }, scope);
    await w.app.commands.createDebt.execute(draft, 'd-2', scope);
    await dispatch();
    expect(sender.to('https://first.example/hooks').map((e) => e.data.object.debtId)).to.deep.equal(['debt_d-2']);
  });

  it('retries a failed delivery on the schedule (500, timeout, then 2xx) and records every attempt', async () => {
    const { w, sender, scope, draft, endpoint, dispatch, detail } = await world({ retryDelaysMs: [MINUTE, 2 * MINUTE] });
    const hook = await endpoint('https://flaky.example/hooks');
    sender.script('https://flaky.example/hooks', [500, 'timeout']);
    await w.app.commands.createDebt.execute(draft, 'd-1', scope);

    await dispatch();
    let shown = (await detail('debt.created')).deliveries;
    expect(shown.map((d) => [d.endpoint.id, d.delivery.status, d.delivery.nextAttemptAt])).to.deep.equal([[hook.id, 'PENDING', new Date(T0.getTime() + MINUTE)]]);
    await dispatch(); // not due yet
    w.clock.advance(MINUTE - 1);
    await dispatch();
    expect(sender.requests).to.have.length(1);
    w.clock.advance(1);
    await dispatch();
    w.clock.advance(2 * MINUTE);
    await dispatch();
    await dispatch();

    expect(sender.requests.map((r) => r.eventId)).to.have.length(3);
    expect(new Set(sender.requests.map((r) => r.eventId)).size).to.equal(1);
    shown = (await detail('debt.created')).deliveries;
    const [delivery] = shown;
    expect(delivery!.delivery).to.deep.include({ status: 'SUCCEEDED', attempts: 3, nextAttemptAt: null });
    expect(delivery!.attempts.map((a) => [a.attempt, a.statusCode, a.error, a.succeeded, a.attemptedAt.getTime() - T0.getTime()])).to.deep.equal([
      [1, 500, 'http_status', false, 0],
      [2, null, 'timeout', false, MINUTE],
      [3, 200, null, true, 3 * MINUTE],
    ]);
    expect(await w.app.queries.webhookDeliveryStats.execute()).to.deep.equal({
      deliveries: { PENDING: 0, SUCCEEDED: 1, FAILED: 0, CANCELLED: 0 },
      attempts: { succeeded: 1, failed: 2 },
    });
  });

  it('fails a delivery for good once the schedule is used up', async () => {
    const { w, sender, scope, draft, endpoint, dispatch, detail } = await world({ retryDelaysMs: [MINUTE] });
    await endpoint('https://down.example/hooks');
    sender.script('https://down.example/hooks', [503, 503, 503]);
    await w.app.commands.createDebt.execute(draft, 'd-1', scope);
    await dispatch();
    w.clock.advance(MINUTE);
    await dispatch();
    w.clock.advance(60 * MINUTE);
    await dispatch();
    const [delivery] = (await detail('debt.created')).deliveries;
    expect(delivery!.delivery).to.deep.include({ status: 'FAILED', attempts: 2, nextAttemptAt: null });
    expect(sender.requests).to.have.length(2);
  });

  it("keeps one resource's events in order per endpoint: a later event waits while an earlier one is retried; other resources do not", async () => {
    const { w, sender, scope, draft, endpoint, dispatch } = await world({ retryDelaysMs: [MINUTE] });
    await endpoint('https://ordered.example/hooks');
    sender.script('https://ordered.example/hooks', [500]);
    await w.app.commands.createDebt.execute(draft, 'd-1', scope);
    await w.app.commands.payDebt.execute('d-1', 4_000, 'test-helper', scope);
    await w.app.commands.createDebt.execute(draft, 'd-2', scope);
    await dispatch();
    const sent = () => sender.to('https://ordered.example/hooks').map((e) => `${e.type} ${e.data.object.debtId}`);
    expect(sent()).to.deep.equal(['debt.created debt_d-1', 'debt.created debt_d-2']);
    w.clock.advance(MINUTE);
    await dispatch(); // d-1's creation goes through, and its payment right after it
    expect(sent()).to.deep.equal(['debt.created debt_d-1', 'debt.created debt_d-2', 'debt.created debt_d-1', 'debt.partially_paid debt_d-1']);
  });

  it('a failed-for-good delivery no longer holds back the next events of its resource', async () => {
    const { w, sender, scope, draft, endpoint, dispatch } = await world({ retryDelaysMs: [] });
    await endpoint('https://strict.example/hooks');
    sender.script('https://strict.example/hooks', [400]);
    await w.app.commands.createDebt.execute(draft, 'd-1', scope);
    await w.app.commands.cancelDebt.execute('d-1', scope);
    await dispatch();
    expect(sender.to('https://strict.example/hooks').map((e) => e.type)).to.deep.equal(['debt.created', 'debt.cancelled']);
  });

  it('disabling or deleting an endpoint cancels its pending deliveries; a claimed one is cancelled by its job', async () => {
    const { w, sender, scope, draft, endpoint, dispatch, detail } = await world();
    const a = await endpoint('https://a.example/hooks');
    const b = await endpoint('https://b.example/hooks');
    sender.script('https://a.example/hooks', [500]);
    sender.script('https://b.example/hooks', [500]);
    await w.app.commands.createDebt.execute(draft, 'd-1', scope);
    await dispatch();
    await w.app.commands.updateWebhookEndpoint.execute(webhookEndpointIdOf(a), { enabled: false }, scope);
    await w.app.commands.deleteWebhookEndpoint.execute(webhookEndpointIdOf(b), scope);
    w.clock.advance(10 * MINUTE);
    await dispatch();
    expect(sender.requests).to.have.length(2);
    const shown = (await detail('debt.created')).deliveries;
    expect(shown.map((d) => [webhookEndpointIdOf(d.endpoint), d.delivery.status, d.attempts.length])).to.deep.equal([
      [webhookEndpointIdOf(a), 'CANCELLED', 1],
      [webhookEndpointIdOf(b), 'CANCELLED', 1],
    ]);
    expect(shown[1]!.endpoint.deletedAt).to.not.equal(null);

    // Claimed, then the endpoint is disabled before the job runs.
    const c = await endpoint('https://c.example/hooks');
    const held: Job[] = [];
    await w.app.commands.createDebt.execute(draft, 'd-2', scope);
    await w.app.jobs.fanOutEvents.execute();
    const now = w.clock.now();
    const [claimed] = await w.repos.webhookDeliveries.claimDue(now, new Date(now.getTime() + DELIVERY_LEASE_MS), 'tok', 10);
    held.push(deliverJob(claimed!));
    await w.repos.webhookEndpoints.update(scope.company.id, c.id, { enabled: false, updatedAt: now });
    expect(await w.app.jobs.deliverWebhook.execute(held[0]!.data as { deliveryId: number; leaseToken: string })).to.deep.equal({ outcome: 'cancelled' });
    expect((await w.repos.webhookDeliveries.findById(claimed!.id))!.status).to.equal('CANCELLED');
  });

  it('a job whose claim was lost (lease ended and claimed again, or redelivered) sends nothing and records nothing', async () => {
    const { w, sender, scope, draft, endpoint } = await world();
    await endpoint('https://a.example/hooks');
    await w.app.commands.createDebt.execute(draft, 'd-1', scope);
    await w.app.jobs.fanOutEvents.execute();
    const now = w.clock.now();
    const [first] = await w.repos.webhookDeliveries.claimDue(now, new Date(now.getTime() + DELIVERY_LEASE_MS), 'first', 10);
    expect(await w.repos.webhookDeliveries.claimDue(now, new Date(now.getTime() + DELIVERY_LEASE_MS), 'second', 10)).to.deep.equal([]);
    w.clock.advance(DELIVERY_LEASE_MS + 1);
    const later = w.clock.now();
    const [again] = await w.repos.webhookDeliveries.claimDue(later, new Date(later.getTime() + DELIVERY_LEASE_MS), 'second', 10);
    expect(again!.id).to.equal(first!.id);
    expect(await w.app.jobs.deliverWebhook.execute({ deliveryId: first!.id, leaseToken: 'first' })).to.deep.equal({ outcome: 'skipped' });
    expect(sender.requests).to.have.length(0);
    expect(await w.app.jobs.deliverWebhook.execute({ deliveryId: again!.id, leaseToken: 'second' })).to.deep.include({ outcome: 'attempted', attempt: 1, status: 'SUCCEEDED' });
    expect(await w.app.jobs.deliverWebhook.execute({ deliveryId: again!.id, leaseToken: 'second' })).to.deep.equal({ outcome: 'skipped' });
    expect(sender.requests).to.have.length(1);
  });

  it('a delivery whose job could not be enqueued is handed over again once its lease ends', async () => {
    let reachable = false;
    const taken: Job[] = [];
    const queue: JobQueue = {
      enqueue: async (job) => {
        if (!reachable) throw new Error('Redis is unreachable');
        taken.push(job);
      },
    };
    const { w, scope, draft, endpoint } = await world({ queue });
    await endpoint('https://a.example/hooks');
    await w.app.commands.createDebt.execute(draft, 'd-1', scope);
    expect(await w.app.jobs.dispatchWebhooks.execute()).to.deep.equal({ deliveriesCreated: 1, claimed: 1, enqueued: 0 });
    reachable = true;
    expect(await w.app.jobs.dispatchWebhooks.execute()).to.deep.equal({ deliveriesCreated: 0, claimed: 0, enqueued: 0 });
    w.clock.advance(DELIVERY_LEASE_MS + 1);
    expect(await w.app.jobs.dispatchWebhooks.execute()).to.deep.equal({ deliveriesCreated: 0, claimed: 1, enqueued: 1 });
    expect(taken.map((j) => j.name)).to.deep.equal(['webhooks.deliver']);
  });
});

describe('webhooks: redelivery (memory)', () => {
  it('sends the event again with the same eventId, attempts counting on, a fresh schedule; to one endpoint when named', async () => {
    const { w, sender, scope, draft, endpoint, dispatch, event } = await world();
    const a = await endpoint('https://a.example/hooks');
    await endpoint('https://b.example/hooks', ['debt.created']);
    await w.app.commands.createDebt.execute(draft, 'd-1', scope);
    await dispatch();
    const created = await event('debt.created');

    const answer = await w.app.commands.redeliverEvent.execute(created.eventId, {}, scope);
    expect(answer.deliveries.map((d) => [d.delivery.status, d.delivery.nextAttemptAt])).to.deep.equal([
      ['PENDING', w.clock.now()],
      ['PENDING', w.clock.now()],
    ]);
    await dispatch();
    await w.app.commands.redeliverEvent.execute(created.eventId, { webhookEndpointId: webhookEndpointIdOf(a) }, scope);
    await dispatch();
    expect(sender.to('https://a.example/hooks').map((e) => e.eventId)).to.deep.equal([created.eventId, created.eventId, created.eventId]);
    expect(sender.to('https://b.example/hooks').map((e) => e.eventId)).to.deep.equal([created.eventId, created.eventId]);
    const shown = await w.app.queries.getEvent.execute(created.eventId, scope);
    expect(shown.deliveries.map((d) => [d.delivery.status, d.delivery.attempts, d.attempts.map((x) => x.attempt)])).to.deep.equal([
      ['SUCCEEDED', 3, [1, 2, 3]],
      ['SUCCEEDED', 2, [1, 2]],
    ]);
  });

  it('reaches an endpoint created after the event; 422 without an enabled subscriber or for a disabled one; 404 for another company', async () => {
    const { w, sender, scope, other, draft, endpoint, dispatch, event } = await world();
    await w.app.commands.createDebt.execute(draft, 'd-1', scope);
    const created = await event('debt.created');
    const failure = (work: Promise<unknown>) => work.then(() => expect.fail('expected a failure'), (e: unknown) => e);
    expect(await failure(w.app.commands.redeliverEvent.execute(created.eventId, {}, scope))).to.be.instanceOf(BusinessRuleViolationError);
    const paidOnly = await endpoint('https://paid.example/hooks', ['debt.paid']);
    expect(await failure(w.app.commands.redeliverEvent.execute(created.eventId, {}, scope))).to.be.instanceOf(BusinessRuleViolationError);
    await w.app.commands.updateWebhookEndpoint.execute(webhookEndpointIdOf(paidOnly), { enabled: false }, scope);
    expect(await failure(w.app.commands.redeliverEvent.execute(created.eventId, { webhookEndpointId: webhookEndpointIdOf(paidOnly) }, scope))).to.be.instanceOf(BusinessRuleViolationError);
    expect(await failure(w.app.commands.redeliverEvent.execute(created.eventId, { webhookEndpointId: 'whe_nope' }, scope))).to.be.instanceOf(NotFoundError);
    expect(await failure(w.app.commands.redeliverEvent.execute(created.eventId, {}, other))).to.be.instanceOf(NotFoundError);
    expect(await failure(w.app.queries.getEvent.execute(created.eventId, other))).to.be.instanceOf(NotFoundError);

    await endpoint('https://new.example/hooks');
    await w.app.commands.redeliverEvent.execute(created.eventId, {}, scope);
    await dispatch();
    expect(sender.to('https://new.example/hooks').map((e) => e.eventId)).to.deep.equal([created.eventId]);
  });
});

describe('webhooks: endpoints (memory)', () => {
  it('a new endpoint is enabled, with a whsec_ secret; its url goes through the policy (400 on url)', async () => {
    const { refused, scope, endpoint } = await world();
    const created: WebhookEndpoint = await endpoint('https://a.example/hooks', ['debt.paid']);
    expect(created).to.deep.include({ enabled: true, enabledEvents: ['debt.paid'], description: null, createdAt: T0 });
    expect(created.code).to.match(/^[A-Za-z0-9]{24}$/);
    refused.add('https://internal.example/hooks');
    const error = await endpoint('https://internal.example/hooks').then(() => null, (e: unknown) => e);
    expect(error).to.be.instanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).details).to.deep.equal([{ field: 'url', issue: 'must not resolve to a private, loopback or link-local address' }]);
    expect(scope.company.id).to.be.a('number');
  });

  it(`a company has at most ${MAX_ENDPOINTS_PER_COMPANY} endpoints; deleted ones do not count`, async () => {
    const { w, scope, endpoint } = await world();
    const made = [];
    for (let i = 0; i < MAX_ENDPOINTS_PER_COMPANY; i++) made.push(await endpoint(`https://e${i}.example/hooks`));
    const refused = await endpoint('https://one-more.example/hooks').then(() => null, (e: unknown) => e);
    expect(refused).to.be.instanceOf(BusinessRuleViolationError);
    await w.app.commands.deleteWebhookEndpoint.execute(webhookEndpointIdOf(made[0]!), scope);
    await endpoint('https://one-more.example/hooks');
  });
});

describe('webhooks: secret rotation (memory)', () => {
  const HOUR = 60 * MINUTE;

  it('a new secret signs at once; the replaced one signs beside it (second v1) until its grace period ends; retries of a pending delivery take the secrets of their own time', async () => {
    const { w, sender, scope, draft, endpoint, dispatch } = await world({ retryDelaysMs: [MINUTE, 2 * HOUR] });
    const hook = await endpoint('https://a.example/hooks');
    sender.script('https://a.example/hooks', [500, 500]);
    await w.app.commands.createDebt.execute(draft, 'd-1', scope);
    await dispatch();
    expect(sender.requests.map((r) => r.secrets)).to.deep.equal([[hook.secret]]);

    const rotated = await w.app.commands.rotateWebhookEndpointSecret.execute(webhookEndpointIdOf(hook), { expiresInHours: 1 }, scope);
    expect(rotated.secret).to.match(/^whsec_[A-Za-z0-9]{32}$/).and.not.equal(hook.secret);
    expect(rotated).to.deep.include({ previousSecret: hook.secret, previousSecretExpiresAt: new Date(T0.getTime() + HOUR), updatedAt: T0 });
    w.clock.advance(MINUTE);
    await dispatch(); // the retry of the delivery written before the rotation
    expect(sender.requests[1]!.secrets).to.deep.equal([rotated.secret, hook.secret]);
    w.clock.advance(2 * HOUR); // the grace period is over
    await dispatch();
    expect(sender.requests[2]!.secrets).to.deep.equal([rotated.secret]);
  });

  it('expiresInHours 0 stops the old secret at once; rotating during a grace period keeps only the secret it replaces; default 24 h; 0..168 else 400 on expiresInHours', async () => {
    const { w, scope, endpoint } = await world();
    const hook = await endpoint('https://a.example/hooks');
    const id = webhookEndpointIdOf(hook);
    const first = await w.app.commands.rotateWebhookEndpointSecret.execute(id, {}, scope);
    expect(first.previousSecretExpiresAt).to.deep.equal(new Date(T0.getTime() + 24 * HOUR));
    const second = await w.app.commands.rotateWebhookEndpointSecret.execute(id, { expiresInHours: 168 }, scope);
    expect(second).to.deep.include({ previousSecret: first.secret, previousSecretExpiresAt: new Date(T0.getTime() + 168 * HOUR) });
    const third = await w.app.commands.rotateWebhookEndpointSecret.execute(id, { expiresInHours: 0 }, scope);
    expect(third).to.deep.include({ previousSecret: null, previousSecretExpiresAt: null });
    expect(new Set([hook.secret, first.secret, second.secret, third.secret]).size).to.equal(4);
    expect((await w.repos.webhookEndpoints.findByCode(scope.company.id, hook.code))!.secret).to.equal(third.secret);
    for (const bad of [-1, 169, 1.5, '2' as unknown as number]) {
      const error = await w.app.commands.rotateWebhookEndpointSecret.execute(id, { expiresInHours: bad }, scope).then(() => null, (e: unknown) => e);
      expect((error as InvalidRequestError).details, String(bad)).to.deep.equal([{ field: 'expiresInHours', issue: 'must be a whole number of hours from 0 to 168' }]);
    }
  });

  it('a disabled endpoint rotates too; a deleted one, or another company\'s, is 404', async () => {
    const { w, scope, other, endpoint } = await world();
    const hook = await endpoint('https://a.example/hooks');
    await w.app.commands.updateWebhookEndpoint.execute(webhookEndpointIdOf(hook), { enabled: false }, scope);
    expect((await w.app.commands.rotateWebhookEndpointSecret.execute(webhookEndpointIdOf(hook), {}, scope)).enabled).to.equal(false);
    expect(await w.app.commands.rotateWebhookEndpointSecret.execute(webhookEndpointIdOf(hook), {}, other).then(() => null, (e: unknown) => e)).to.be.instanceOf(NotFoundError);
    await w.app.commands.deleteWebhookEndpoint.execute(webhookEndpointIdOf(hook), scope);
    expect(await w.app.commands.rotateWebhookEndpointSecret.execute(webhookEndpointIdOf(hook), {}, scope).then(() => null, (e: unknown) => e)).to.be.instanceOf(NotFoundError);
  });
});

describe('webhooks: test events (memory)', () => {
  it('sends one signed webhook.test event now, through the sender, and answers what happened; nothing is logged or retried', async () => {
    const { w, sender, scope, endpoint, dispatch } = await world();
    const hook = await endpoint('https://a.example/hooks');
    const lastEvent = await w.repos.events.lastId();
    const ok = await w.app.commands.testWebhookEndpoint.execute(webhookEndpointIdOf(hook), scope);
    expect(ok).to.deep.include({ delivered: true, statusCode: 200, error: null, durationMs: 12 });
    expect(ok.eventId).to.match(/^evt_[A-Za-z0-9]{24}$/);
    const [request] = sender.requests;
    expect(request).to.deep.include({ url: 'https://a.example/hooks', eventId: ok.eventId, secrets: [hook.secret], timestamp: Math.floor(T0.getTime() / 1000) });
    const body = JSON.parse(request!.body);
    expect(body).to.have.keys('eventId', 'type', 'createdAt', 'companyCode', 'data', 'requestId');
    expect(body).to.deep.include({ eventId: ok.eventId, type: 'webhook.test', createdAt: T0.toISOString(), companyCode: scope.company.code, requestId: null });
    expect(body.data.object).to.deep.include({ webhookEndpointId: webhookEndpointIdOf(hook), url: 'https://a.example/hooks', enabled: true });
    expect(body.data.object).to.not.have.property('secret');

    sender.script('https://a.example/hooks', [503, 'timeout']);
    expect(await w.app.commands.testWebhookEndpoint.execute(webhookEndpointIdOf(hook), scope)).to.deep.include({ delivered: false, statusCode: 503, error: 'http_status' });
    expect(await w.app.commands.testWebhookEndpoint.execute(webhookEndpointIdOf(hook), scope)).to.deep.include({ delivered: false, statusCode: null, error: 'timeout' });
    expect(await w.repos.events.lastId(), 'no event written').to.equal(lastEvent);
    w.clock.advance(60 * MINUTE);
    await dispatch();
    expect(sender.requests, 'nothing retried').to.have.length(3);
  });

  it('sends to a disabled endpoint too, with both secrets during a rotation; 404 for a deleted or another company\'s endpoint', async () => {
    const { w, sender, scope, other, endpoint } = await world();
    const hook = await endpoint('https://a.example/hooks');
    const id = webhookEndpointIdOf(hook);
    await w.app.commands.updateWebhookEndpoint.execute(id, { enabled: false }, scope);
    const rotated = await w.app.commands.rotateWebhookEndpointSecret.execute(id, { expiresInHours: 2 }, scope);
    expect((await w.app.commands.testWebhookEndpoint.execute(id, scope)).delivered).to.equal(true);
    expect(sender.requests[0]!.secrets).to.deep.equal([rotated.secret, hook.secret]);
    expect(JSON.parse(sender.requests[0]!.body).data.object.enabled).to.equal(false);
    expect(await w.app.commands.testWebhookEndpoint.execute(id, other).then(() => null, (e: unknown) => e)).to.be.instanceOf(NotFoundError);
    await w.app.commands.deleteWebhookEndpoint.execute(id, scope);
    expect(await w.app.commands.testWebhookEndpoint.execute(id, scope).then(() => null, (e: unknown) => e)).to.be.instanceOf(NotFoundError);
    expect(sender.requests).to.have.length(1);
  });
});
