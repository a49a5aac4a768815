import { expect } from 'chai';
import { describeEachDatabase, type Tenant } from '../support/harness';
import { expectOk } from '../support/http-expect';
import { expectHtmlPage, pageClient, textOf } from '../support/pages';

/**
 * The hosted page of a subscription: every generated cycle in due-date order; with
 * enforcePaymentOrder only the earliest unpaid cycle can be paid (a forged post for a later one
 * is refused by the payment use case itself), without it any open cycle.
 */

type Body = Record<string, unknown>;
const NOW = '2031-01-05T12:00:00.000Z';

describeEachDatabase(
  'hosted pages: subscriptions',
  ({ api }) => {
    const http = () => api().http;

    async function subscription(fields: Body = {}): Promise<{ t: Tenant; sub: Body }> {
      const t = await api().newTenant();
      expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now: NOW }));
      const body = {
        externalSubscriptionId: 'gym-ana', contactData: { externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, amount: 300,
        intervalUnit: 'month', intervalCount: 1, startDate: '2031-01-10', totalCycles: 3, productName: 'Gimnasio', description: 'Plan mensual', ...fields,
      };
      const sub = expectOk(await http().post('/subscriptions').set(t.headers).send(body), 201);
      await api().drainJobs();
      return { t, sub };
    }
    const cycles = async (t: Tenant, id: string) => expectOk<Body[]>(await http().get(`/subscriptions/${id}/debts`).set(t.headers));

    it('lists every cycle in order and, with enforcePaymentOrder, takes only the earliest unpaid one', async () => {
      const { t, sub } = await subscription({ enforcePaymentOrder: true });
      const url = String(sub.paymentUrl);
      expect(url).to.match(/\/pay\/[A-Z0-9-]+\/subscriptions\/sub_[A-Za-z0-9]+\/[A-Za-z0-9_-]{22}$/);
      const client = pageClient(api());
      const page = await client.open(url);
      const text = expectHtmlPage(page.res, 200);
      // The cycles table writes its dates short, to fit a phone.
      const dates = ['2031-01-10', '2031-02-10', '2031-03-10'].map((d) => new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${d}T00:00:00Z`)));
      expect(dates.map((d) => text.indexOf(d)).every((at, i, all) => at > 0 && (i === 0 || at > all[i - 1]!))).to.equal(true);
      expect(text).to.include('Plan mensual').and.include('Próxima cuota a pagar: vence el 10 de enero de 2031');
      const generated = await cycles(t, String(sub.subscriptionId));
      const byDue = [...generated].sort((a, b) => String(a.dueDate).localeCompare(String(b.dueDate)));
      expect(page.form!.fields.cycle).to.equal(byDue[0]!.debtId);

      // A forged post for the second cycle: the payment use case enforces the order.
      const forged = await client.post(page.form!.action, { ...page.form!.fields, cycle: String(byDue[1]!.debtId), amountChoice: 'full', method: 'WALLET' });
      expect(expectHtmlPage(forged, 422)).to.include('El pago no se pudo aplicar');
      const unknown = await client.post(page.form!.action, { ...page.form!.fields, cycle: 'debt_nope', amountChoice: 'full', method: 'WALLET' });
      expect(expectHtmlPage(unknown, 400)).to.include('Elige una cuota que se pueda pagar');

      expect((await client.submit(url, { amountChoice: 'full', method: 'WALLET' })).status).to.equal(303);
      const next = await client.open(url);
      expect(textOf(next.html)).to.include('Próxima cuota a pagar: vence el 10 de febrero de 2031');
      expect(next.form!.fields.cycle).to.equal(byDue[1]!.debtId);
      expect((await client.submit(url, { amountChoice: 'full', method: 'WALLET' })).status).to.equal(303);
      expect((await client.submit(url, { amountChoice: 'full', method: 'WALLET' })).status).to.equal(303);
      const done = await client.open(url);
      expect(expectHtmlPage(done.res, 200)).to.include('No tienes cuotas pendientes');
      expect(done.form).to.equal(null);
      const after = await cycles(t, String(sub.subscriptionId));
      expect(after.map((d) => d.status)).to.deep.equal(['PAID', 'PAID', 'PAID']);
    });

    it('without enforcePaymentOrder any open cycle can be chosen; a receipt links back to the subscription page', async () => {
      const { t, sub } = await subscription();
      const url = String(sub.paymentUrl);
      const client = pageClient(api());
      const page = await client.open(url);
      expect(page.html.match(/name="cycle"/g)).to.have.length(3);
      const byDue = [...(await cycles(t, String(sub.subscriptionId)))].sort((a, b) => String(a.dueDate).localeCompare(String(b.dueDate)));
      const res = await client.post(page.form!.action, { ...page.form!.fields, cycle: String(byDue[2]!.debtId), amountChoice: 'partial', amount: '100', method: 'WALLET' });
      expect(res.status, textOf(res.text)).to.equal(303);
      const receipt = await client.open(res.headers.location);
      expect(receipt.html).to.include(`href="${url}"`);
      const updated = expectOk(await http().get(`/debts/${byDue[2]!.debtId}`).set(t.headers));
      expect(updated).to.deep.include({ status: 'PARTIALLY_PAID', amountPaid: 100 });
      expect(textOf((await client.open(url)).html)).to.include('Pagada en parte');
    });

    it('shows a cancelled subscription\'s state, and 404 for a tampered signature', async () => {
      const { t, sub } = await subscription();
      expectOk(await http().post(`/subscriptions/${sub.subscriptionId}/cancel`).set(t.headers));
      const client = pageClient(api());
      const page = await client.open(String(sub.paymentUrl));
      expect(expectHtmlPage(page.res, 200)).to.include('Cancelada').and.include('Esta suscripción fue cancelada');
      expect(page.form).to.equal(null);
      expect((await client.open(String(sub.paymentUrl).replace(/\/[^/]+$/, '/AAAAAAAAAAAAAAAAAAAAAA'))).res.status).to.equal(404);
    });
  },
  { withWorker: true },
);
