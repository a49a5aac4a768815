/**
 * Issue 16, item 6: no secret in the logs. The API runs with its pino logger at `debug` into
 * memory while the test goes through every flow that creates or carries a secret (logins right
 * and wrong, refresh and reuse, key rotation, a webhook endpoint and its signed deliveries,
 * signed debt and subscription URLs, a private link's short code, receipts, an enrollment link,
 * card and account numbers typed into the hosted pages, tampered URLs). Then every log line is
 * searched for every secret the run created: zero hits. The request lines name route patterns
 * and non-secret ids (adapters/http/middleware/request-context.ts), which the test also checks
 * were logged, so it cannot pass on an empty log.
 */
import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { SANDBOX_CARDS } from '../../adapters/gateways/sandbox-payment-processor';
import { DATABASE_KINDS, databaseAvailable } from '../support/databases';
import { type ApiHarness, randomAddress, startApi, type Tenant } from '../support/harness';
import { expectOk } from '../support/http-expect';
import { pageClient } from '../support/pages';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { Tally } from './support/summary';

const CLABE = '002010077777777771';
const CARD = { method: 'CARD', cardNumber: SANDBOX_CARDS.approved, cardExpiry: '12/39', cardCvc: '123' };

for (const kind of DATABASE_KINDS) {
  describe(`no secret in the logs [${kind}]`, function () {
    this.timeout(120_000);
    const lines: string[] = [];
    let api: ApiHarness;
    let receiver: WebhookReceiver;

    before(async function () {
      if (!(await databaseAvailable(kind))) this.skip();
      const memory = new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(line);
          done();
        },
      });
      receiver = await startWebhookReceiver();
      api = await startApi(kind, { logger: pino({ level: 'debug' }, memory), webhooks: { retryDelays: '1s', dispatchEveryMs: 100 } });
    });

    after(async () => {
      await api?.close();
      await receiver?.close();
    });

    it('logs none of the secrets every flow created, at debug level', async () => {
      const http = api.http;
      /** name → the secret's text; every one is searched for in every line. */
      const secrets = new Map<string, string>();
      const keep = (name: string, value: unknown) => {
        expect(value, name).to.be.a('string').with.length.above(7);
        secrets.set(name, String(value));
      };
      const lastSegment = (url: unknown) => String(url).split('/').pop()!;

      // Credentials: create, log in (right and wrong), refresh, reuse a rotated refresh token, rotate the API key.
      const t: Tenant = await api.newTenant({ settings: { privateLinks: true, directDebitEnabled: true, directDebitModality: true } });
      keep('password', t.password);
      keep('apiKey', t.apiKey);
      keep('loginApiKey', t.loginApiKey);
      keep('accessToken', t.accessToken);
      keep('refreshToken', t.refreshToken);
      const wrongPassword = `wrong-${t.password}-guess`;
      keep('wrong password', wrongPassword);
      expect((await http.post('/auth/login').set('X-Forwarded-For', randomAddress()).set('x-api-key', t.loginApiKey).send({ clientUsername: t.clientUsername, password: wrongPassword })).status).to.equal(401);
      expect((await http.post('/auth/login').set('X-Forwarded-For', randomAddress()).send({ clientUsername: t.clientUsername, password: t.password })).status).to.equal(401);
      const relogin = await http.post('/auth/login').set('X-Forwarded-For', randomAddress()).set('x-api-key', t.loginApiKey).send({ clientUsername: t.clientUsername, password: t.password });
      expect(relogin.status).to.equal(200);
      keep('second accessToken', relogin.body.accessToken);
      keep('second refreshToken', relogin.body.refreshToken);
      const refreshed = await http.post('/auth/refresh').set('x-api-key', t.loginApiKey).send({ refreshToken: relogin.body.refreshToken });
      expect(refreshed.status).to.equal(200);
      keep('rotated refreshToken', refreshed.body.refreshToken);
      keep('refreshed accessToken', refreshed.body.accessToken);
      expect((await http.post('/auth/refresh').set('x-api-key', t.loginApiKey).send({ refreshToken: relogin.body.refreshToken })).status, 'reuse').to.equal(401);

      // A webhook endpoint: its secret signs every delivery.
      const endpoint = expectOk(await http.post('/webhook-endpoints').set(t.headers).send({ url: receiver.url('/hooks'), enabledEvents: ['*'] }), 201);
      keep('webhook secret', endpoint.secret);
      receiver.setSecret('/hooks', String(endpoint.secret));

      // A debt, its signed page paid by card (approved, then declined on another), its receipt; a tampered signature.
      expectOk(await http.post('/contacts').set(t.headers).send({ externalClientId: 'ana', name: 'Ana Registro', email: 'ana@example.com' }), 201);
      const debt = expectOk(await http.post('/v2/debts').set(t.headers).send({ externalClientId: 'ana', amount: 120, dueDate: '2039-01-10' }), 201);
      keep('debt URL signature', lastSegment(debt.paymentUrl));
      const client = pageClient(api);
      const paid = await client.submit(String(debt.paymentUrl), { amountChoice: 'full', ...CARD });
      expect(paid.status, paid.text.slice(0, 300)).to.equal(303);
      keep('card number', CARD.cardNumber);
      keep('receipt code', lastSegment(paid.headers.location));
      expect((await client.open(paid.headers.location)).res.status).to.equal(200);
      const declinedDebt = expectOk(await http.post('/v2/debts').set(t.headers).send({ externalClientId: 'ana', amount: 80, dueDate: '2039-01-11' }), 201);
      keep('second debt URL signature', lastSegment(declinedDebt.paymentUrl));
      const declined = await client.submit(String(declinedDebt.paymentUrl), { amountChoice: 'full', ...CARD, cardNumber: SANDBOX_CARDS.declined });
      expect(declined.status).to.equal(402);
      keep('declined card number', SANDBOX_CARDS.declined);
      const unavailable = await client.submit(String(declinedDebt.paymentUrl), { amountChoice: 'full', ...CARD, cardNumber: SANDBOX_CARDS.unavailable });
      expect(unavailable.status, 'the processor outage is logged as an error').to.equal(503);
      keep('outage card number', SANDBOX_CARDS.unavailable);
      const tampered = String(debt.paymentUrl).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
      expect((await client.open(tampered)).res.status).to.equal(404);

      // A private link (its short code), paid by card.
      const link = expectOk(await http.post('/payment-links').set(t.headers).send({ amount: 50, description: 'Entrada', expiresAt: '2039-03-20T12:00:00.000Z' }), 201);
      expect(String(link.paymentUrl)).to.match(/\/l\/[A-Za-z0-9]+$/);
      keep('short code', lastSegment(link.paymentUrl));
      expect((await client.submit(String(link.paymentUrl), CARD)).status).to.equal(303);

      // A subscription's signed page.
      const subscription = expectOk(
        await http.post('/subscriptions').set(t.headers).send({
          externalSubscriptionId: 'log-sub', externalClientId: 'ana', amount: 30, intervalUnit: 'month', intervalCount: 1, startDate: '2039-01-10', totalCycles: 2, productName: 'Plan',
        }),
        201,
      );
      await api.drainJobs();
      keep('subscription URL signature', lastSegment(subscription.paymentUrl));
      expect((await client.open(String(subscription.paymentUrl))).res.status).to.equal(200);

      // An enrollment link: a bank account and a card registered through its page, the done page, a tampered token.
      const enrollment = expectOk(await http.post('/enrollment-links').set(t.headers).send({ externalClientId: 'ana' }), 201);
      const token = lastSegment(enrollment.url);
      keep('enrollment token', token);
      keep('enrollment token tag', token.split('.')[1]);
      const account = await client.submit(String(enrollment.url), { type: 'BANK_ACCOUNT', accountNumber: CLABE });
      expect(account.status, account.text.slice(0, 300)).to.equal(303);
      keep('account number', CLABE);
      expect((await client.open(account.headers.location)).res.status).to.equal(200);
      expect((await client.submit(String(enrollment.url), { type: 'CARD_TOKENIZED', cardNumber: '5555555555554444', cardExpiry: '10/38' })).status).to.equal(303);
      keep('enrolled card number', '5555555555554444');
      expect((await client.open(`/enroll/${token.slice(0, -2)}xx`)).res.status).to.equal(404);

      // A rotated facade key, used once.
      const rotated = await api.app.commands.rotateApiKey.execute(t.clientUsername, 'facade');
      keep('rotated apiKey', rotated.apiKey);
      expect((await http.get('/contacts').set({ 'x-api-key': rotated.apiKey, 'x-authorization-token': refreshed.body.accessToken })).status).to.equal(200);

      // The deliveries went out, signed with the secret.
      await receiver.waitFor('/hooks', (got) => got.length >= 3 && got.every((r) => r.signatureValid));
      await api.drainJobs();

      const tally = new Tally(`log secrets [${kind}]: ${secrets.size} secrets in ${lines.length} log lines at debug`);
      for (const [name, secret] of secrets) {
        const hits = lines.filter((line) => line.includes(secret));
        tally.record(hits.length ? `${name} in ${hits.length} line(s), first: ${hits[0]!.replace(secret, '<secret>').slice(0, 300)}` : null);
      }
      tally.report('secrets');

      // Not vacuous: the flows were logged, request lines by route pattern, and an error with its cause.
      const routes = new Set(lines.map((line) => JSON.parse(line) as { msg?: string; route?: string }).filter((l) => l.msg === 'request').map((l) => l.route));
      for (const route of ['/auth/login', '/auth/refresh', '/webhook-endpoints', '/pay/:companyCode/debts/:debtId/:signature', '/receipts/:code', '/l/:shortCode', '/pay/:companyCode/subscriptions/:subscriptionId/:signature', '/enroll/:token', '/enroll/:token/done/:paymentMethodId']) {
        expect([...routes], 'the request lines name route patterns').to.include(route);
      }
      expect(lines.some((line) => line.includes('"level":50')), 'the processor outage was logged as an error').to.equal(true);
    });
  });
}
