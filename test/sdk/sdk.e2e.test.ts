import { expect } from 'chai';
import { mysqlAvailable, redisAvailable } from '../support/databases';
import { type ApiHarness, JWT_TEST_SECRET, startApi, type Tenant } from '../support/harness';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { SandboxPaymentInstructionProvider } from '../../adapters/gateways/sandbox-payment-instruction-provider';
import {
  CollectionsApiError,
  CollectionsClient,
  type CollectionsClientOptions,
  CollectionsPartialUpdateError,
  type OperationId,
  operationTable,
  verifyWebhook,
  WebhookSignatureError,
} from '../../sdk/typescript/src/index.js';

/**
 * The SDK against the real API: MySQL, BullMQ on Redis, the worker as a process of its own,
 * webhooks delivered to a local receiver. Every operation of the generated table is called at
 * least once through the SDK, except the ones in NOT_COVERED_YET; the last test fails when an
 * operation is neither, and when a listed one is exercised (so the list only shrinks).
 */

/**
 * Operations this test does not call yet. Today none of them is in the served document: they are
 * announced (issue 15) and get their SDK method from `npm run sdk:generate` once the routes land;
 * then call them below and remove them from this list.
 */
const NOT_COVERED_YET: string[] = [
];

const NOW = '2031-05-10T15:00:00.000Z';
const WEBHOOKS = { retryDelays: '300ms,300ms,300ms', dispatchEveryMs: 200 };

describe('SDK end to end [mysql + redis + worker process]', function () {
  this.timeout(60_000);

  let api: ApiHarness;
  let receiver: WebhookReceiver;
  let tenant: Tenant;
  let sdk: CollectionsClient;
  let north: string;
  let south: string;
  const exercised = new Set<OperationId>();

  /** A client of the tenant; every 2xx answer it gets counts its operation as exercised. */
  function newClient(options: Partial<CollectionsClientOptions> = {}): CollectionsClient {
    return new CollectionsClient({
      baseUrl: api.baseUrl,
      apiKey: tenant.apiKey,
      loginApiKey: tenant.loginApiKey,
      clientUsername: tenant.clientUsername,
      password: tenant.password,
      companyCode: north,
      onResponse: (info) => {
        if (info.status >= 200 && info.status < 300) exercised.add(info.operationId);
      },
      ...options,
    });
  }

  /** A fetch that lets the first matching request reach the API, then loses its answer (as a dropped connection would). */
  function losingFirstAnswer(method: string, path: string): typeof fetch {
    let lost = false;
    return async (input, init) => {
      const response = await fetch(input, init);
      if (!lost && init?.method === method && new URL(String(input)).pathname === path) {
        lost = true;
        await response.text();
        throw new TypeError('fetch failed (the answer was lost on the way back)');
      }
      return response;
    };
  }

  before(async function () {
    this.timeout(120_000);
    if (!(await mysqlAvailable()) || !(await redisAvailable())) this.skip();
    receiver = await startWebhookReceiver();
    api = await startApi('mysql', { worker: true, webhooks: WEBHOOKS, realBaseUrl: true });
    tenant = await api.newTenant({ companies: ['north', 'south'], settings: { directDebitEnabled: true, directDebitModality: true } });
    [north, south] = tenant.companyCodes as [string, string];
    sdk = newClient();
  });

  after(async () => {
    await api?.close();
    await receiver?.close();
  });

  it('health probes, login and refresh', async () => {
    expect(await sdk.getLiveness()).to.deep.equal({ status: 'ok' });
    expect(await sdk.getReadiness()).to.deep.include({ status: 'ok' });
    const session = await sdk.login();
    expect(session.accessToken).to.be.a('string');
    const renewed = await sdk.refreshSession();
    expect(renewed.refreshToken).to.be.a('string').and.not.equal(session.refreshToken);
    expect(sdk.session.accessToken).to.equal(renewed.accessToken);
    // The spent refresh token is refused by the server: the SDK's single-use rotation kept the new one.
    const stale = newClient({ accessToken: 'not-a-token', refreshToken: session.refreshToken as string });
    expect(await stale.getLiveness()).to.deep.equal({ status: 'ok' });
    expect(await stale.setClock({ now: NOW })).to.deep.include({ frozen: true }); // refresh refused (401), logged in again
  });

  let endpointId = '';
  let secret = '';
  it('webhook endpoints', async () => {
    const created = await sdk.createWebhookEndpoint({ url: receiver.url('/sdk'), enabledEvents: ['*'], description: 'SDK e2e' });
    endpointId = created.webhookEndpointId!;
    secret = created.secret!;
    receiver.setSecret('/sdk', secret);
    expect(secret).to.match(/^whsec_/);
    expect(await sdk.getWebhookEndpoint(endpointId)).to.deep.include({ url: receiver.url('/sdk'), enabled: true });
    expect((await sdk.updateWebhookEndpoint(endpointId, { description: 'SDK end to end' })).description).to.equal('SDK end to end');
    expect((await sdk.listWebhookEndpoints()).data.map((e) => e.webhookEndpointId)).to.deep.equal([endpointId]);
    const all = [];
    for await (const endpoint of sdk.webhookEndpoints.list()) all.push(endpoint.webhookEndpointId);
    expect(all).to.deep.equal([endpointId]);
  });

  let productId = '';
  it('products and contacts, with typed errors', async () => {
    const product = await sdk.createProduct({ name: 'Gym plan' });
    productId = product.productId!;
    expect(await sdk.getProduct(productId)).to.deep.include({ name: 'Gym plan', active: true });
    expect((await sdk.updateProduct(productId, { name: 'Gym plan+' })).name).to.equal('Gym plan+');
    const other = await sdk.createProduct({ name: 'Old plan' });
    expect((await sdk.deleteProduct(other.productId!)).active).to.equal(false);
    expect((await sdk.listProducts()).data.map((p) => p.productId)).to.deep.equal([productId]);
    const products = [];
    for await (const p of sdk.products.list()) products.push(p.name);
    expect(products).to.deep.equal(['Gym plan+']);

    const ana = await sdk.createContact({ externalClientId: 'ana', name: 'Ana', email: 'ana@example.com', phones: [{ number: '+52 55 1234 5678', type: 'MOBILE' }] });
    expect(ana.contactId).to.match(/^con_/);
    expect(await sdk.getContact(ana.contactId!)).to.deep.include({ externalClientId: 'ana', name: 'Ana' });
    expect((await sdk.updateContact(ana.contactId!, { name: 'Ana María' })).name).to.equal('Ana María');
    await sdk.createContact({ externalClientId: 'bob', name: 'Bob', email: 'bob@example.com' });
    expect((await sdk.listContacts({ name: 'ana' })).data.map((c) => c.externalClientId)).to.deep.equal(['ana']);
    const contacts = [];
    for await (const c of sdk.contacts.list({ limit: 1 })) contacts.push(c.externalClientId);
    expect(contacts).to.deep.equal(['bob', 'ana']);

    const conflict = await sdk.createContact({ externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }).catch((e: unknown) => e);
    expect(conflict).to.be.instanceOf(CollectionsApiError).and.include({ status: 409, code: 'RESOURCE_CONFLICT', operationId: 'createContact' });
    expect((conflict as CollectionsApiError).requestId).to.match(/^req_/);
    const invalid = (await sdk.createContact({ externalClientId: 'eve', name: 'Eve', email: 'not-an-email' }).catch((e: unknown) => e)) as CollectionsApiError;
    expect(invalid).to.include({ status: 400, code: 'INVALID_REQUEST' });
    expect(invalid.details.map((d) => d.field)).to.include('email');
    const missing = await sdk.getContact('con_nobody').catch((e: unknown) => e);
    expect(missing).to.include({ status: 404, code: 'RESOURCE_NOT_FOUND' });
  });

  it('debts: single with its Idempotency-Key, a replay, a lost answer retried with the same key, batches 201/207/422, legacy, update, pay, cancel, lists', async () => {
    const debt = await sdk.createDebt({ externalClientId: 'ana', amount: 100, dueDate: '2031-06-30', productId }, { idempotencyKey: 'order-1' });
    expect(debt).to.deep.include({ debtId: 'debt_order-1', externalRequestId: 'order-1', status: 'PENDING', amount: 100 });
    const replay = await sdk.request('createDebt', { body: { externalClientId: 'ana', amount: 999, dueDate: '2031-06-30' } }, { idempotencyKey: 'order-1' });
    expect(replay.status).to.equal(201);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.body.data).to.deep.include({ debtId: 'debt_order-1', amount: 100 });

    // The first answer is lost after the API created the debt: the retry carries the same generated key, the API replays it.
    const lossy = newClient({ fetch: losingFirstAnswer('POST', '/v2/debts'), retryBaseDelayMs: 10 });
    const recovered = await lossy.createDebt({ externalClientId: 'ana', amount: 42, dueDate: '2031-06-30' });
    expect(recovered.amount).to.equal(42);
    expect(await sdk.getDebt(recovered.debtId!)).to.deep.include({ debtId: recovered.debtId, amount: 42 });
    const fortyTwos = (await sdk.listDebts({ minAmount: 42, maxAmount: 42 })).data;
    expect(fortyTwos, 'one debt for two attempts').to.have.length(1);

    const created = await sdk.createDebt({ debts: ['b-1', 'b-2', 'b-3'].map((id, i) => ({ externalRequestId: id, externalClientId: 'bob', amount: 10 + i, dueDate: '2031-06-30' })) });
    expect(created).to.deep.include({ status: 201, errors: [] });
    expect(created.data.map((d) => d.debtId)).to.deep.equal(['debt_b-1', 'debt_b-2', 'debt_b-3']);
    const some = await sdk.createDebt({ debts: [{ externalRequestId: 'p-1', externalClientId: 'bob', amount: 5, dueDate: '2031-06-30' }, { externalRequestId: 'p-2', externalClientId: 'nobody', amount: 5, dueDate: '2031-06-30' }] });
    expect(some.status).to.equal(207);
    expect(some.data.map((d) => d.debtId)).to.deep.equal(['debt_p-1']);
    expect(some.errors).to.deep.equal([{ index: 1, externalRequestId: 'p-2', code: 'BUSINESS_RULE_VIOLATION', message: (some.errors[0] as { message: string }).message }]);
    expect(some.batchId).to.be.a('string');
    const none = await sdk.createDebt({ debts: [{ externalRequestId: 'n-1', externalClientId: 'nobody', amount: 5, dueDate: '2031-06-30' }] });
    expect(none).to.deep.include({ status: 422, data: [] });
    expect(none.errors).to.have.length(1);
    expect((await sdk.listDebts({ batchId: created.batchId })).meta.total).to.equal(3);

    const legacy = await sdk.createLegacyDebt({ externalClientId: 'ana', amount: 30, dueDate: '2031-06-30', productName: 'Gym plan+', paymentMethods: ['CARD'] });
    expect(legacy.product).to.deep.include({ productId });

    expect((await sdk.updateDebt('debt_order-1', { amount: 150 })).amount).to.equal(150);
    expect((await sdk.payDebt('debt_order-1', { amount: 50 })).status).to.equal('PARTIALLY_PAID');
    expect((await sdk.payDebt('debt_order-1')).status).to.equal('PAID');
    expect((await sdk.cancelDebt('debt_b-3')).status).to.equal('CANCELLED');

    const late = await sdk.createDebt({ externalClientId: 'bob', amount: 7, dueDate: '2031-05-01' }, { idempotencyKey: 'late-1' });
    expect(late.debtId).to.equal('debt_late-1');
    const overdue = [];
    for await (const d of sdk.debts.list({ status: 'OVERDUE' })) overdue.push(d.debtId);
    expect(overdue).to.deep.equal(['debt_late-1']);

    const listed = [];
    for await (const d of sdk.debts.list({ limit: 2 })) listed.push(d.debtId);
    const { meta } = await sdk.listDebts({ limit: 2 });
    expect(listed).to.have.length(meta.total!).and.include.members(['debt_order-1', 'debt_b-1', 'debt_b-2', 'debt_p-1', 'debt_late-1']);
    expect(new Set(listed).size).to.equal(listed.length);
    expect(meta.total).to.be.greaterThan(2);

    // companyCode per call: the other company of the client has none of these debts.
    expect((await sdk.listDebts({}, { companyCode: south })).meta.total).to.equal(0);
    const elsewhere = await sdk.getDebt('debt_order-1', { companyCode: south }).catch((e: unknown) => e);
    expect(elsewhere).to.include({ status: 404 });
  });

  it('payment links: a lost create answer recovered through its key, update, pay, payments, cancel, lists', async () => {
    const lossy = newClient({ fetch: losingFirstAnswer('POST', '/payment-links'), retryBaseDelayMs: 10 });
    const link = await lossy.createPaymentLink({ amount: 25, description: 'Class pack', expiresAt: '2031-06-01T00:00:00Z', singleUse: false });
    expect(link.status).to.equal('ACTIVE');
    expect(link.externalPaymentLinkId).to.match(/^[0-9a-f-]{36}$/);
    const byKey = await sdk.listPaymentLinks({ externalPaymentLinkId: link.externalPaymentLinkId! });
    expect(byKey.data.map((l) => l.paymentLinkId)).to.deep.equal([link.paymentLinkId]);

    expect(await sdk.getPaymentLink(link.paymentLinkId!)).to.deep.include({ paymentLinkId: link.paymentLinkId, amount: 25 });
    expect((await sdk.updatePaymentLink(link.paymentLinkId!, { description: 'Class pack (10)' })).description).to.equal('Class pack (10)');
    await sdk.payPaymentLink(link.paymentLinkId!);
    const paid = await sdk.payPaymentLink(link.paymentLinkId!, { amount: 25 });
    expect(paid.status).to.equal('ACTIVE');
    const payments = await sdk.listPaymentLinkPayments(link.paymentLinkId!, { status: 'PAID' });
    expect(payments.data).to.have.length(2);
    const all = [];
    for await (const p of sdk.paymentLinkPayments.list(link.paymentLinkId!, { limit: 1 })) all.push(p.paymentId);
    expect(all).to.have.length(3); // the link's own PENDING debt and the two payment records

    const single = await sdk.createPaymentLink({ amount: 5, description: 'One-off', expiresAt: '2031-06-01T00:00:00Z', externalPaymentLinkId: 'one-off-1' });
    expect((await sdk.cancelPaymentLink(single.paymentLinkId!)).status).to.equal('CANCELLED');
    const ids = [];
    for await (const l of sdk.paymentLinks.list()) ids.push(l.paymentLinkId);
    expect(ids).to.have.members([link.paymentLinkId, single.paymentLinkId]);
  });

  it('subscriptions: cycles generated by the worker, a PARTIAL_UPDATE surfaced as CollectionsPartialUpdateError, pause, resume, cancel', async () => {
    const sub = await sdk.createSubscription({
      externalSubscriptionId: 'gym-ana', externalClientId: 'ana', amount: 100, intervalUnit: 'month', intervalCount: 1,
      startDate: '2031-05-10', totalCycles: 3, productName: 'Gym plan+',
    });
    expect(sub.status).to.equal('ACTIVE');
    await api.drainJobs();
    const cycles = [];
    for await (const d of sdk.subscriptionDebts.list(sub.subscriptionId!)) cycles.push(d.debtId);
    expect(cycles).to.have.members(['debt_gym-ana-cycle-0', 'debt_gym-ana-cycle-1', 'debt_gym-ana-cycle-2']);
    expect((await sdk.listSubscriptionDebts(sub.subscriptionId!, { limit: 1 })).meta.total).to.equal(3);
    expect(await sdk.getSubscription(sub.subscriptionId!)).to.deep.include({ externalSubscriptionId: 'gym-ana', amount: 100 });
    expect((await sdk.listSubscriptions({ status: 'ACTIVE' })).data.map((s) => s.subscriptionId)).to.deep.equal([sub.subscriptionId]);
    const subs = [];
    for await (const s of sdk.subscriptions.list()) subs.push(s.subscriptionId);
    expect(subs).to.deep.equal([sub.subscriptionId]);

    // The first cycle already received 80: a new amount of 50 cannot reach it.
    await sdk.payDebt('debt_gym-ana-cycle-0', { amount: 80 });
    const partial = await sdk.updateSubscription(sub.subscriptionId!, { amount: 50 }).catch((e: unknown) => e);
    expect(partial).to.be.instanceOf(CollectionsPartialUpdateError);
    expect(partial).to.include({ status: 207, code: 'PARTIAL_UPDATE' });
    expect((partial as CollectionsPartialUpdateError<{ amount: number }>).data.amount).to.equal(50);
    expect((await sdk.getDebt('debt_gym-ana-cycle-1')).amount).to.equal(50);

    expect((await sdk.pauseSubscription(sub.subscriptionId!)).status).to.equal('PAUSED');
    expect((await sdk.resumeSubscription(sub.subscriptionId!)).status).to.equal('ACTIVE');
    await api.drainJobs();
    expect((await sdk.cancelSubscription(sub.subscriptionId!)).status).to.equal('CANCELLED');
  });

  it('direct debit: payment methods, adhesions, enrollment links', async () => {
    const method = await sdk.registerPaymentMethod({ externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' });
    expect(method).to.deep.include({ isDefault: true, status: 'ACTIVE' });
    // Not paginated (the API answers `{ data }`), though today's document gives it `meta`, so the SDK answers a page;
    // once the exact document lands it answers the array. Read either way.
    const methods = (await sdk.listPaymentMethods({ externalClientId: 'ana' })) as unknown;
    const listed = (Array.isArray(methods) ? methods : (methods as { data: unknown[] }).data) as { paymentMethodId: string }[];
    expect(listed.map((m) => m.paymentMethodId)).to.deep.equal([method.paymentMethodId]);
    const adhesion = await sdk.createAdhesion({ externalClientId: 'ana', productId });
    expect(adhesion).to.deep.include({ status: 'ACTIVE' });
    expect(await sdk.cancelAdhesion({ externalClientId: 'ana', productId })).to.deep.include({ status: 'INACTIVE' });
    const link = await sdk.createEnrollmentLink({ externalClientId: 'ana' });
    expect(link.url).to.match(new RegExp(`^${api.baseUrl}/enroll/`));
  });

  it('cash and transfer: instructions, the sandbox provider\'s money (helper and signed notification), unapplied payments applied and refunded', async () => {
    const debt = await sdk.createDebt({ externalClientId: 'bob', amount: 80, dueDate: '2031-06-30' }, { idempotencyKey: 'cash-1' });
    const transfer = await sdk.createPaymentInstruction(debt.debtId!, { method: 'TRANSFER' });
    expect(transfer).to.deep.include({ method: 'TRANSFER', status: 'PENDING', amount: 80 });
    expect(transfer.transfer?.accountType).to.equal('CLABE');
    const voucher = await sdk.createPaymentInstruction(debt.debtId!, { method: 'CASH', amount: 30 });
    expect(voucher.cash?.voucherUrl).to.match(/voucher\.pdf$/);
    expect((await sdk.listPaymentInstructions(debt.debtId!)).map((i) => i.paymentInstructionId)).to.deep.equal([voucher.paymentInstructionId, transfer.paymentInstructionId]);
    expect(await sdk.getPaymentInstruction(transfer.paymentInstructionId!)).to.deep.include({ status: 'PENDING' });

    // The sandbox helper: 30 in cash, then the provider itself notifies 60 by transfer (10 more than owed).
    expect(await sdk.receiveSandboxPayment(voucher.paymentInstructionId!)).to.deep.include({ provider: 'sandbox', amount: 30 });
    const body = {
      id: 'sdk-txn-1', type: 'payment.received' as const, instruction: transfer.transfer!.accountNumber!, amount: 60, currency: 'MXN' as const, receivedAt: NOW,
    };
    const provider = SandboxPaymentInstructionProvider.derivedFrom(JWT_TEST_SECRET);
    const receipt = await sdk.receiveProviderNotification('sandbox', body, { headers: provider.sandbox.sign(JSON.stringify(body), new Date()) });
    expect(receipt).to.deep.include({ outcome: 'PARTIALLY_APPLIED', appliedAmount: 50, unappliedAmount: 10, replayed: false });
    expect(await sdk.getDebt(debt.debtId!)).to.deep.include({ status: 'PAID', amountPaid: 80 });

    const open = await sdk.listUnappliedPayments({ status: 'OPEN' });
    expect(open.data.map((u) => [u.amount, u.reason])).to.deep.equal([[10, 'OVERPAYMENT']]);
    const upy = open.data[0]!.unappliedPaymentId!;
    expect(await sdk.getUnappliedPayment(upy)).to.deep.include({ status: 'OPEN', debtId: debt.debtId });
    const next = await sdk.createDebt({ externalClientId: 'bob', amount: 25, dueDate: '2031-06-30' }, { idempotencyKey: 'cash-2' });
    expect((await sdk.applyUnappliedPayment(upy, { debtId: next.debtId! })).resolution).to.deep.include({ action: 'APPLIED', debtId: next.debtId });

    const again = await sdk.createPaymentInstruction(next.debtId!, { method: 'CASH' });
    await sdk.receiveSandboxPayment(again.paymentInstructionId!, { amount: 20 });
    const [over] = (await sdk.listUnappliedPayments({ status: 'OPEN' })).data;
    expect((await sdk.refundUnappliedPayment(over!.unappliedPaymentId!)).status).to.equal('RESOLVED');
    const all = [];
    for await (const u of sdk.unappliedPayments.list({ limit: 1 })) all.push(u.unappliedPaymentId);
    expect(all).to.have.length(2);
  });

  it('events and a webhook delivery verified with verifyWebhook; a redelivery', async () => {
    const paidEvents = [];
    for await (const e of sdk.events.list({ type: 'debt.paid', resourceId: 'debt_order-1' })) paidEvents.push(e);
    expect(paidEvents).to.have.length(1);
    const eventId = paidEvents[0]!.eventId!;
    expect((await sdk.listEvents({ limit: 1 })).meta.total).to.be.greaterThan(20);

    const [delivery] = await receiver.waitFor('/sdk', (got) => got.some((r) => r.body.eventId === eventId), 30_000).then((got) => got.filter((r) => r.body.eventId === eventId));
    const header = delivery!.headers['x-signature'] as string;
    const event = await verifyWebhook(delivery!.raw, header, secret);
    expect(event).to.deep.equal(delivery!.body);
    expect(event).to.deep.include({ eventId, type: 'debt.paid', companyCode: north });
    expect(await verifyWebhook(delivery!.raw, header, ['whsec_an-old-one', secret])).to.deep.equal(event);
    const refused = await verifyWebhook(delivery!.raw, header, 'whsec_wrong').catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(WebhookSignatureError).and.include({ reason: 'NO_MATCHING_SIGNATURE' });
    const tampered = await verifyWebhook(delivery!.raw.replace('"PAID"', '"PENDING"'), header, secret).catch((e: unknown) => e);
    expect(tampered).to.be.instanceOf(WebhookSignatureError);

    const detail = await sdk.getEvent(eventId);
    expect(detail.deliveries?.[0]).to.deep.include({ webhookEndpointId: endpointId });
    const redelivered = await sdk.redeliverEvent(eventId, { webhookEndpointId: endpointId });
    expect(redelivered.eventId).to.equal(eventId);
    const again = await receiver.waitFor('/sdk', (got) => got.filter((r) => r.body.eventId === eventId).length >= 2, 30_000);
    const second = again.filter((r) => r.body.eventId === eventId)[1]!;
    expect(await verifyWebhook(second.raw, second.headers['x-signature'] as string, secret)).to.deep.equal(event);
  });

  it('webhook tooling: a test event verified, then a secret rotation verified with the old and the new secret', async () => {
    const sent = await sdk.testWebhookEndpoint(endpointId);
    expect(sent).to.deep.include({ type: 'webhook.test', webhookEndpointId: endpointId, delivered: true, statusCode: 200, error: null });
    const [test] = (await receiver.waitFor('/sdk', (got) => got.some((r) => r.body.eventId === sent.eventId), 10_000)).filter((r) => r.body.eventId === sent.eventId);
    const testEvent = await verifyWebhook(test!.raw, test!.headers['x-signature'] as string, secret);
    expect(testEvent.type).to.equal('webhook.test');

    const rotated = await sdk.rotateWebhookEndpointSecret(endpointId, { expiresInHours: 1 });
    expect(rotated.secret).to.match(/^whsec_/).and.not.equal(secret);
    expect(rotated.previousSecretExpiresAt).to.be.a('string');
    const during = await sdk.testWebhookEndpoint(endpointId);
    const [signed] = (await receiver.waitFor('/sdk', (got) => got.some((r) => r.body.eventId === during.eventId), 10_000)).filter((r) => r.body.eventId === during.eventId);
    const header = signed!.headers['x-signature'] as string;
    expect(header.match(/v1=/g)).to.have.length(2);
    // A receiver that still has only the old secret, one that has the new one, and one with both all verify.
    for (const secrets of [secret, rotated.secret, [rotated.secret, secret]]) expect((await verifyWebhook(signed!.raw, header, secrets)).eventId).to.equal(during.eventId);
    secret = rotated.secret;
  });

  it('payment reminders: policy, template, preview, preferences; the worker process sends the due step once when the clock reaches it', async () => {
    const policy = await sdk.putReminderPolicy(north, {
      enabled: true, timeZone: 'America/Mexico_City', sendWindow: { from: '09:00', to: '20:00' }, steps: [{ offsetDays: 0, channels: ['email', 'sms', 'whatsapp'] }],
    });
    expect(policy).to.deep.include({ companyCode: north, enabled: true });
    expect(await sdk.getReminderPolicy(north)).to.deep.equal(policy);
    expect(await sdk.putReminderTemplate('sms', 'es-MX', { body: '{{company.name}}: paga {{debt.amount}} en {{debt.paymentUrl}}' })).to.deep.include({ channel: 'sms', locale: 'es-MX' });
    const rita = await sdk.createContact({ externalClientId: 'rita', name: 'Rita', email: 'rita@example.com', phones: [{ number: '+52 55 9876 5432', type: 'MOBILE', primary: true }] });
    expect(await sdk.putCommunicationPreferences(rita.contactId!, { email: true, sms: true, whatsapp: false })).to.deep.equal({ contactId: rita.contactId, email: true, sms: true, whatsapp: false });
    const debt = await sdk.createDebt({ externalClientId: 'rita', amount: 420, dueDate: '2031-05-20' }, { idempotencyKey: 'reminder-1' });
    const preview = await sdk.previewReminder({ channel: 'sms', locale: 'es-MX', debtId: debt.debtId! });
    expect(preview.body).to.include('$420.00').and.include(debt.paymentUrl!);

    // 09:00 in Mexico City on the due date: the worker's scheduler (every 3 s) and send jobs do the rest.
    await sdk.setClock({ now: '2031-05-20T15:00:00.000Z' });
    const deadline = Date.now() + 20_000;
    let reminders = await sdk.listDebtReminders(debt.debtId!);
    while (reminders.filter((r) => r.status !== 'SCHEDULED').length < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      reminders = await sdk.listDebtReminders(debt.debtId!);
    }
    expect(reminders.map((r) => [r.channel, r.status])).to.have.deep.members([['email', 'SENT'], ['sms', 'SENT'], ['whatsapp', 'SKIPPED']]);
    await new Promise((resolve) => setTimeout(resolve, 3500)); // one more scheduler tick: nothing is sent again
    const messages = await sdk.listSandboxMessages({ debtId: debt.debtId! });
    expect(messages.map((m) => m.channel)).to.have.members(['email', 'sms']);
    expect(messages.find((m) => m.channel === 'sms')!.body).to.include('$420.00');
    await sdk.setClock({ now: NOW });
  });

  it('clean up: the webhook endpoint, the sandbox clock', async () => {
    expect(await sdk.deleteWebhookEndpoint(endpointId)).to.deep.include({ deleted: true });
    expect(await sdk.resetClock()).to.deep.include({ frozen: false });
  });

  it('exercised every operation of the generated table, except the ones listed as not covered yet', () => {
    const table = Object.keys(operationTable) as OperationId[];
    const missing = table.filter((id) => !exercised.has(id) && !NOT_COVERED_YET.includes(id));
    expect(missing, 'operations neither exercised nor listed in NOT_COVERED_YET').to.deep.equal([]);
    const coveredAfterAll = NOT_COVERED_YET.filter((id) => exercised.has(id as OperationId));
    expect(coveredAfterAll, 'exercised now: remove them from NOT_COVERED_YET').to.deep.equal([]);
  });
});
