import { expect } from 'chai';
import { describeEachDatabase, type Tenant } from '../support/harness';
import { expectError, expectInvalid, expectNotFound, expectOk } from '../support/http-expect';

/**
 * Payment reminders through HTTP (decisions.md section 7): the policy and template routes with
 * their 400s, the preview, contact preferences, and the reminders the scheduler and the send job
 * make when the sandbox clock reaches a step (sent, skipped, failed), read back from the debt,
 * the sandbox messages and the events; the one-click unsubscribe page.
 */

type Body = Record<string, any>;
// 2031-06-15 09:00 in Mexico City (UTC-6, no DST since 2022) is 15:00 UTC.
const DUE = '2031-06-15';
const WINDOW_OPENS = '2031-06-15T15:00:00.000Z';
const POLICY = {
  enabled: true,
  timeZone: 'America/Mexico_City',
  sendWindow: { from: '09:00', to: '20:00' },
  steps: [{ offsetDays: 0, channels: ['whatsapp', 'email'] }, { offsetDays: -3, channels: ['email'] }, { offsetDays: 3, channels: ['sms'] }],
};

describeEachDatabase('payment reminders', ({ api }) => {
  const http = () => api().http;
  const freeze = async (t: Tenant, now: string) => expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now }));
  const putPolicy = (t: Tenant, body: Body, code = t.companyCodes[0]!) => http().put(`/reminder-policies/${code}`).set(t.headers).send(body);
  const debtOf = async (t: Tenant, body: Body = {}, contact: Body = {}) =>
    expectOk(
      await http().post('/v2/debts').set(t.headers).send({
        contactData: { externalClientId: `c-${Math.random().toString(36).slice(2)}`, name: 'Ana <López>', email: 'ana@example.com', phones: [{ number: '+52 55 1234 5678', type: 'MOBILE', primary: true }], ...contact },
        amount: 1500.5, dueDate: DUE, ...body,
      }),
      201,
    );
  const reminders = async (t: Tenant, debtId: string) => expectOk<Body[]>(await http().get(`/debts/${debtId}/reminders`).set(t.headers));
  const messages = async (t: Tenant, debtId: string) => expectOk<Body[]>(await http().get('/test-helpers/messages').query({ debtId }).set(t.headers));
  const run = async () => {
    await api().app.jobs.scheduleReminders.execute();
    await api().drainJobs();
  };

  let name = '';
  async function tenant(): Promise<Tenant> {
    name = `Gimnasio ${Math.random().toString(36).slice(2, 8)}`;
    const t = await api().newTenant({ organization: name });
    await freeze(t, '2031-06-01T12:00:00.000Z');
    return t;
  }

  describe('PUT and GET /reminder-policies/{companyCode}', () => {
    it('reads enabled: false with no steps before one is saved, then the saved policy, steps by offsetDays', async () => {
      const t = await tenant();
      const code = t.companyCodes[0]!;
      expect(expectOk(await http().get(`/reminder-policies/${code}`).set(t.headers))).to.deep.equal({
        companyCode: code, enabled: false, timeZone: 'America/Mexico_City', sendWindow: { from: '09:00', to: '20:00' }, steps: [], locale: null, updatedAt: null,
      });
      const saved = expectOk(await putPolicy(t, POLICY));
      expect(saved).to.deep.equal({
        companyCode: code, enabled: true, timeZone: 'America/Mexico_City', sendWindow: { from: '09:00', to: '20:00' },
        steps: [{ offsetDays: -3, channels: ['email'] }, { offsetDays: 0, channels: ['whatsapp', 'email'] }, { offsetDays: 3, channels: ['sms'] }],
        locale: null, updatedAt: '2031-06-01T12:00:00.000Z',
      });
      expect(expectOk(await http().get(`/reminder-policies/${code}`).set(t.headers))).to.deep.equal(saved);
      const audit = expectOk<Body[]>(await http().get('/events').set(t.headers)).length;
      expect(audit).to.be.a('number');
    });

    it('answers 400 naming the field: offsets out of range or repeated, too many steps, unknown channel, zone or window', async () => {
      const t = await tenant();
      const cases: [Body, string][] = [
        [{ ...POLICY, steps: [{ offsetDays: -31, channels: ['email'] }] }, 'steps[0].offsetDays'],
        [{ ...POLICY, steps: [{ offsetDays: 91, channels: ['email'] }] }, 'steps[0].offsetDays'],
        [{ ...POLICY, steps: [{ offsetDays: 1, channels: ['email'] }, { offsetDays: 1, channels: ['sms'] }] }, 'steps[1].offsetDays'],
        [{ ...POLICY, steps: Array.from({ length: 11 }, (_, i) => ({ offsetDays: i, channels: ['email'] })) }, 'steps'],
        [{ ...POLICY, steps: [{ offsetDays: 0, channels: ['fax'] }] }, 'steps[0].channels[0]'],
        [{ ...POLICY, steps: [{ offsetDays: 0, channels: [] }] }, 'steps[0].channels'],
        [{ ...POLICY, timeZone: 'Mars/Olympus' }, 'timeZone'],
        [{ ...POLICY, timeZone: '+05:00' }, 'timeZone'],
        [{ ...POLICY, sendWindow: { from: '25:00', to: '20:00' } }, 'sendWindow.from'],
        [{ ...POLICY, sendWindow: { from: '20:00', to: '09:00' } }, 'sendWindow.to'],
        [{ ...POLICY, enabled: 'yes' }, 'enabled'],
        [{ ...POLICY, extra: 1 }, 'extra'],
        [{ timeZone: 'UTC' }, 'enabled'],
      ];
      for (const [body, field] of cases) expectInvalid(await putPolicy(t, body), field, JSON.stringify(body));
      expectInvalid(await putPolicy(t, POLICY, 'NOT-MINE'), 'companyCode');
    });
  });

  describe('PUT /reminder-templates/{channel}/{locale}', () => {
    it('saves a template; unknown variables, a subject outside email, none for email and unknown channel or locale are 400', async () => {
      const t = await tenant();
      const saved = expectOk(await http().put('/reminder-templates/email/es-MX').set(t.headers).send({ subject: 'Pago {{debt.amount}}', body: 'Hola {{contact.name}}: {{debt.paymentUrl}}' }));
      expect(saved).to.deep.equal({ channel: 'email', locale: 'es-MX', subject: 'Pago {{debt.amount}}', body: 'Hola {{contact.name}}: {{debt.paymentUrl}}', updatedAt: '2031-06-01T12:00:00.000Z' });
      expect(expectOk(await http().put('/reminder-templates/sms/en-US').set(t.headers).send({ body: 'Pay {{debt.amount}}' }))).to.deep.equal({
        channel: 'sms', locale: 'en-US', body: 'Pay {{debt.amount}}', updatedAt: '2031-06-01T12:00:00.000Z',
      });
      expectInvalid(await http().put('/reminder-templates/sms/es-MX').set(t.headers).send({ body: 'Hola {{debt.total}}' }), 'body');
      expectInvalid(await http().put('/reminder-templates/email/es-MX').set(t.headers).send({ subject: '{{user.name}}', body: 'x' }), 'subject');
      expectInvalid(await http().put('/reminder-templates/email/es-MX').set(t.headers).send({ body: 'x' }), 'subject');
      expectInvalid(await http().put('/reminder-templates/sms/es-MX').set(t.headers).send({ subject: 's', body: 'x' }), 'subject');
      expectInvalid(await http().put('/reminder-templates/fax/es-MX').set(t.headers).send({ body: 'x' }), 'channel');
      expectInvalid(await http().put('/reminder-templates/sms/fr-FR').set(t.headers).send({ body: 'x' }), 'locale');
      expectInvalid(await http().put('/reminder-templates/sms/es-MX').set(t.headers).send({ body: 'x'.repeat(700) }), 'body');
      expectInvalid(await http().put('/reminder-templates/sms/es-MX').set(t.headers).send({}), 'body');
    });
  });

  describe('POST /reminder-templates/preview', () => {
    it('renders the default SMS in the locale with the amount, date and paymentUrl, counting its segments', async () => {
      const t = await tenant();
      const debt = await debtOf(t);
      const preview = expectOk(await http().post('/reminder-templates/preview').set(t.headers).send({ channel: 'sms', locale: 'es-MX', debtId: debt.debtId }));
      expect(preview).to.deep.equal({
        body: `${name}: tu pago de $1,500.50 vence el 15 de junio de 2031. Paga aqui: ${debt.paymentUrl}`,
        segments: 2,
      });
      const en = expectOk(await http().post('/reminder-templates/preview').set(t.headers).send({ channel: 'whatsapp', locale: 'en-US', debtId: debt.debtId }));
      expect(en.body).to.include('*MX$1,500.50*').and.include('June 15, 2031').and.include(debt.paymentUrl);
    });

    it('renders the company email template: subject, text part, and the HTML part with every value escaped', async () => {
      const t = await tenant();
      expectOk(await http().put('/reminder-templates/email/es-AR').set(t.headers).send({ subject: '{{company.name}} & {{contact.name}}', body: 'Hola {{contact.name}} <b>:\n{{debt.amount}} {{debt.paymentUrl}}' }));
      const debt = await debtOf(t, { currency: 'ARS' });
      const preview = expectOk(await http().post('/reminder-templates/preview').set(t.headers).send({ channel: 'email', locale: 'es-AR', debtId: debt.debtId }));
      expect(preview.subject).to.equal(`${name} & Ana <López>`);
      expect(preview.body.replace(/\u00a0/g, ' ')).to.equal(`Hola Ana <López> <b>:\n$ 1.500,50 ${debt.paymentUrl}`);
      expect(preview.html.replace(/\u00a0/g, ' ')).to.include('Hola Ana &lt;López&gt; &lt;b&gt;:<br>$ 1.500,50').and.include(`<a href="${debt.paymentUrl}">`).and.include('/unsubscribe/');
      expect(preview).to.not.have.property('segments');
    });

    it('answers 404 for an unknown debt and 400 naming the field', async () => {
      const t = await tenant();
      expectNotFound(await http().post('/reminder-templates/preview').set(t.headers).send({ channel: 'sms', locale: 'es-MX', debtId: 'debt_nope' }));
      expectInvalid(await http().post('/reminder-templates/preview').set(t.headers).send({ locale: 'es-MX', debtId: 'x' }), 'channel');
      expectInvalid(await http().post('/reminder-templates/preview').set(t.headers).send({ channel: 'sms', locale: 'xx', debtId: 'x' }), 'locale');
    });
  });

  describe('the reminders of a debt', () => {
    it('sends each channel of the due step once when the clock reaches the window, read back from the debt, the sandbox and the events', async () => {
      const t = await tenant();
      expectOk(await putPolicy(t, POLICY));
      const debt = await debtOf(t);
      await freeze(t, '2031-06-15T14:59:00.000Z');
      await run();
      expect(await reminders(t, debt.debtId), 'before the window opens').to.deep.equal([]);

      await freeze(t, WINDOW_OPENS);
      await run();
      await run();
      const list = await reminders(t, debt.debtId);
      expect(list.map((r) => [r.offsetDays, r.channel, r.status])).to.have.deep.members([[0, 'whatsapp', 'SENT'], [0, 'email', 'SENT']]);
      const email = list.find((r) => r.channel === 'email')!;
      expect(email).to.deep.include({ debtId: debt.debtId, scheduledFor: WINDOW_OPENS, sentAt: WINDOW_OPENS, recipient: 'an***@example.com', failureReason: null });
      expect(email.reminderId).to.match(/^rem_[A-Za-z0-9]{24}$/);
      expect(email.providerMessageId).to.match(/^sbx_/);
      expect(list.find((r) => r.channel === 'whatsapp')!.recipient).to.equal('+52******5678');

      const sent = await messages(t, debt.debtId);
      expect(sent.map((m) => m.channel)).to.have.members(['whatsapp', 'email']);
      const mail = sent.find((m) => m.channel === 'email')!;
      expect(mail).to.include({ to: 'ana@example.com', debtId: debt.debtId, providerMessageId: email.providerMessageId, sentAt: WINDOW_OPENS });
      expect(mail.subject).to.equal(`${name}: recordatorio de pago por $1,500.50`);
      expect(mail.body).to.include(debt.paymentUrl);
      expect(sent.find((m) => m.channel === 'whatsapp')).to.include({ to: '+525512345678' });

      const events = expectOk<Body[]>(await http().get('/events').query({ type: 'reminder.sent' }).set(t.headers));
      expect(events.map((e) => e.data.object.reminderId)).to.have.members(list.map((r) => r.reminderId));
      const metrics = await http().get('/metrics');
      expect(metrics.status).to.equal(200);
      expect(metrics.text).to.match(/cf_reminders\{[^}]*channel="email"[^}]*status="SENT"[^}]*\} [1-9]/);
    });

    it('a policy saved later inside the window sends today\'s and yesterday\'s steps at once, never one whose day passed more than a day ago', async () => {
      const t = await tenant();
      const debt = await debtOf(t);
      // 14:00 in Mexico City on the due date.
      await freeze(t, '2031-06-15T20:00:00.000Z');
      expectOk(await putPolicy(t, { ...POLICY, steps: [{ offsetDays: -3, channels: ['email'] }, { offsetDays: -1, channels: ['email'] }, { offsetDays: 0, channels: ['sms'] }] }));
      await run();
      const list = await reminders(t, debt.debtId);
      expect(list.map((r) => [r.offsetDays, r.channel, r.status, r.scheduledFor])).to.deep.equal([
        [-1, 'email', 'SENT', '2031-06-14T15:00:00.000Z'],
        [0, 'sms', 'SENT', WINDOW_OPENS],
      ]);
      // Steps after the due date wait for the debt to be OVERDUE; a debt paid before never gets them.
      expectOk(await putPolicy(t, { ...POLICY, steps: [{ offsetDays: 1, channels: ['email'] }] }));
      await freeze(t, '2031-06-16T15:00:00.000Z');
      await run();
      expect((await reminders(t, debt.debtId)).map((r) => [r.offsetDays, r.status])).to.deep.equal([[-1, 'SENT'], [0, 'SENT'], [1, 'SENT']]);
    });

    it('a payment between scheduling and sending makes the reminder SKIPPED before it goes out', async () => {
      const t = await tenant();
      expectOk(await putPolicy(t, POLICY));
      const debt = await debtOf(t);
      await freeze(t, WINDOW_OPENS);
      api().queue.down = true;
      try {
        await api().app.jobs.scheduleReminders.execute();
      } finally {
        api().queue.down = false;
      }
      expect((await reminders(t, debt.debtId)).map((r) => r.status)).to.deep.equal(['SCHEDULED', 'SCHEDULED']);
      expectOk(await http().post(`/test-helpers/debts/${debt.debtId}/pay`).set(t.headers).send({}), 201);
      await api().app.jobs.dispatchOutbox.execute();
      await api().drainJobs();
      const list = await reminders(t, debt.debtId);
      expect(list.map((r) => [r.status, r.failureReason])).to.deep.equal([['SKIPPED', 'the debt is PAID'], ['SKIPPED', 'the debt is PAID']]);
      expect(await messages(t, debt.debtId)).to.deep.equal([]);
    });

    it('skips a channel the contact turned off or has no address for, and fails a refused address with reminder.failed', async () => {
      const t = await tenant();
      expectOk(await putPolicy(t, { ...POLICY, steps: [{ offsetDays: 0, channels: ['email', 'sms', 'whatsapp'] }] }));
      const debt = await debtOf(t, {}, { email: 'ana@invalid.example', phones: [] });
      const prefs = expectOk(await http().put(`/contacts/${debt.contact.contactId}/communication-preferences`).set(t.headers).send({ email: true, sms: false, whatsapp: true }));
      expect(prefs).to.deep.equal({ contactId: debt.contact.contactId, email: true, sms: false, whatsapp: true });
      await freeze(t, WINDOW_OPENS);
      await run();
      const list = await reminders(t, debt.debtId);
      const by = (channel: string) => list.find((r) => r.channel === channel)!;
      expect(by('sms')).to.include({ status: 'SKIPPED', failureReason: 'the contact turned sms off' });
      expect(by('whatsapp')).to.include({ status: 'SKIPPED', failureReason: 'the contact has no phone number' });
      expect(by('email')).to.include({ status: 'FAILED', failureReason: 'the sandbox refuses addresses at invalid.example', sentAt: null });
      const failed = expectOk<Body[]>(await http().get('/events').query({ type: 'reminder.failed' }).set(t.headers));
      expect(failed.map((e) => e.data.object.reminderId)).to.deep.equal([by('email').reminderId]);
    });

    it('answers 404 for an unknown debt or contact, and 400 for bad preferences or a missing debtId', async () => {
      const t = await tenant();
      expectNotFound(await http().get('/debts/debt_nope/reminders').set(t.headers));
      expectNotFound(await http().put('/contacts/con_nope/communication-preferences').set(t.headers).send({ email: true, sms: true, whatsapp: true }));
      const debt = await debtOf(t);
      expectInvalid(await http().put(`/contacts/${debt.contact.contactId}/communication-preferences`).set(t.headers).send({ email: 'no', sms: true, whatsapp: true }), 'email');
      expectInvalid(await http().put(`/contacts/${debt.contact.contactId}/communication-preferences`).set(t.headers).send({ email: true }), 'sms');
      expectInvalid(await http().get('/test-helpers/messages').set(t.headers), 'debtId');
      expectNotFound(await http().get('/test-helpers/messages').query({ debtId: 'debt_nope' }).set(t.headers));
      expectError(await http().get(`/debts/${debt.debtId}/reminders`), 401, 'AUTHENTICATION_FAILED');
    });
  });

  describe('the one-click unsubscribe page (RFC 8058)', () => {
    it('GET shows a confirmation and changes nothing; POST List-Unsubscribe=One-Click turns email off', async () => {
      const t = await tenant();
      expectOk(await putPolicy(t, { ...POLICY, steps: [{ offsetDays: -3, channels: ['email'] }, { offsetDays: 0, channels: ['email'] }] }));
      const debt = await debtOf(t);
      await freeze(t, '2031-06-12T15:00:00.000Z');
      await run();
      const [mail] = await messages(t, debt.debtId);
      const path = new URL(mail!.unsubscribeUrl).pathname;
      const page = await http().get(path);
      expect(page.status).to.equal(200);
      expect(page.headers['content-security-policy']).to.include("frame-ancestors 'none'");
      expect(page.text).to.include(name).and.include('name="List-Unsubscribe" value="One-Click"');
      expect((await http().post(path).type('form').send('other=1')).status).to.equal(400);
      const done = await http().post(path).type('form').send('List-Unsubscribe=One-Click');
      expect(done.status).to.equal(200);
      expect(done.text).to.include(name);
      expect((await http().get(`${path}x`)).status).to.equal(404);

      await freeze(t, WINDOW_OPENS);
      await run();
      const list = await reminders(t, debt.debtId);
      expect(list.map((r) => [r.offsetDays, r.status, r.failureReason])).to.deep.equal([[-3, 'SENT', null], [0, 'SKIPPED', 'the contact turned email off']]);
    });
  });
});
