/**
 * Payment reminders in storage: policies and templates (upserts), contact preferences, the
 * scheduler's candidate range (payable debts of a due date lacking a step's reminder), the unique
 * (debt, offsetDays, channel) that decides between schedulers, leases, and the sandbox messages
 * (one per reference), rolled back with their transaction, on every adapter.
 */
import { expect } from 'chai';
import type { Reminder } from '../../internal/reminders/reminder';
import type { NewReminder } from '../../ports/reminder-repository';
import type { Repositories } from '../../ports/unit-of-work';
import { HOUR, newContact, newDebt, newTenant, T1, T2, type TenantFixture, uid } from './fixtures';
import type { ContractContext } from './repositories.contract';
import { contend, expectWaited } from './contention';

export function newReminder(t: TenantFixture, debtId: number, overrides: Partial<NewReminder> = {}): NewReminder {
  return {
    organizationId: t.organization.id, companyId: t.company.id, debtId, code: `R${uid()}${uid()}`, offsetDays: 0, channel: 'email', status: 'SCHEDULED',
    scheduledFor: T1, sentAt: null, recipient: null, providerMessageId: null, failureReason: null, attempts: 0, leaseUntil: T2, createdAt: T1, updatedAt: T1,
    ...overrides,
  };
}

export function describeRemindersContract({ repos, uow, contention }: ContractContext): void {
  async function fixture() {
    const t = await newTenant(repos());
    const contact = await repos().contacts.insert(newContact(t.organization.id));
    const debt = (overrides = {}) => repos().debts.insert(newDebt({ ...t, contact }, { dueDate: '2031-06-15', ...overrides }));
    return { t, contact, debt };
  }

  describe('ReminderRepository', () => {
    it('keeps one policy per company (saved again: replaced) and lists only the enabled ones', async () => {
      const { t } = await fixture();
      const policy = { enabled: true, timeZone: 'America/Bogota', sendWindow: { from: '08:30', to: '19:00' }, steps: [{ offsetDays: -2, channels: ['email' as const, 'sms' as const] }], locale: 'es-CO' as const };
      expect(await repos().reminders.findPolicy(t.company.id)).to.equal(null);
      const saved = await repos().reminders.savePolicy(t.organization.id, t.company.id, policy, T1);
      expect(saved).to.deep.equal({ ...policy, organizationId: t.organization.id, companyId: t.company.id, updatedAt: T1 });
      expect((await repos().reminders.listEnabledPolicies()).map((p) => p.companyId)).to.include(t.company.id);
      await repos().reminders.savePolicy(t.organization.id, t.company.id, { ...policy, enabled: false, locale: null }, T2);
      expect(await repos().reminders.findPolicy(t.company.id)).to.deep.include({ enabled: false, locale: null, updatedAt: T2 });
      expect((await repos().reminders.listEnabledPolicies()).map((p) => p.companyId)).to.not.include(t.company.id);
    });

    it('keeps one template per company, channel and locale, and the preferences of a contact', async () => {
      const { t, contact } = await fixture();
      const template = { companyId: t.company.id, channel: 'email' as const, locale: 'es-MX' as const, subject: 'Hola', body: 'Paga {{debt.amount}}', updatedAt: T1 };
      expect(await repos().reminders.saveTemplate(template)).to.deep.equal(template);
      await repos().reminders.saveTemplate({ ...template, subject: 'Otra', updatedAt: T2 });
      expect(await repos().reminders.findTemplate(t.company.id, 'email', 'es-MX')).to.deep.equal({ ...template, subject: 'Otra', updatedAt: T2 });
      expect(await repos().reminders.findTemplate(t.company.id, 'email', 'en-US')).to.equal(null);
      expect(await repos().reminders.findPreferences(contact.id)).to.equal(null);
      await repos().reminders.savePreferences(contact.id, { email: true, sms: false, whatsapp: true }, T1);
      await repos().reminders.savePreferences(contact.id, { email: false, sms: false, whatsapp: true }, T2);
      expect(await repos().reminders.findPreferences(contact.id)).to.deep.equal({ email: false, sms: false, whatsapp: true });
      expect((await repos().reminders.findContact(t.organization.id, contact.id))?.code).to.equal(contact.code);
      expect(await repos().reminders.findContact(t.organization.id + 1_000_000, contact.id), 'another organization').to.equal(null);
    });

    it('reads candidates: payable debts of the company due that day lacking a reminder of the step on one of its channels, by id', async () => {
      const { t, debt } = await fixture();
      const a = await debt();
      const b = await debt({ status: 'OVERDUE' });
      const c = await debt({ status: 'PARTIALLY_PAID' });
      await debt({ status: 'PAID' });
      await debt({ status: 'CANCELLED' });
      await debt({ dueDate: '2031-06-16' });
      const candidates = await repos().reminders.candidates(t.company.id, '2031-06-15', 0, ['email', 'sms'], 10);
      expect(candidates.map((d) => d.id)).to.deep.equal([a.id, b.id, c.id]);
      expect(candidates[1]).to.deep.equal({ id: b.id, status: 'OVERDUE', dueDate: '2031-06-15', autopay: false });

      await repos().reminders.insertMissing([newReminder(t, a.id, { channel: 'email' }), newReminder(t, a.id, { channel: 'sms' }), newReminder(t, b.id, { channel: 'email' })]);
      expect((await repos().reminders.candidates(t.company.id, '2031-06-15', 0, ['email', 'sms'], 10)).map((d) => d.id), 'b still lacks sms').to.deep.equal([b.id, c.id]);
      expect((await repos().reminders.candidates(t.company.id, '2031-06-15', 3, ['email', 'sms'], 10)).map((d) => d.id), 'another step').to.deep.equal([a.id, b.id, c.id]);
      expect((await repos().reminders.candidates(t.company.id, '2031-06-15', 0, ['email', 'sms'], 1)).map((d) => d.id)).to.deep.equal([b.id]);
      expect((await repos().reminders.candidates(t.company.id, '2031-06-15', 0, ['email', 'sms'], 10, { afterId: b.id })).map((d) => d.id), 'after a cursor').to.deep.equal([c.id]);
      const auto = await debt({ autopay: true });
      expect((await repos().reminders.candidates(t.company.id, '2031-06-15', 0, ['email'], 10)).map((d) => d.id)).to.include(auto.id);
      expect((await repos().reminders.candidates(t.company.id, '2031-06-15', 0, ['email'], 10, { excludeAutopay: true })).map((d) => d.id)).to.not.include(auto.id);
    });

    it('inserts each (debt, offsetDays, channel) once: a second insert of the same keys skips them and returns only what it inserted', async () => {
      const { t, debt } = await fixture();
      const d = await debt();
      const first = await repos().reminders.insertMissing([newReminder(t, d.id, { channel: 'email' }), newReminder(t, d.id, { channel: 'sms' })]);
      expect(first.map((r) => r.channel)).to.deep.equal(['email', 'sms']);
      const second = await repos().reminders.insertMissing([newReminder(t, d.id, { channel: 'email' }), newReminder(t, d.id, { channel: 'whatsapp' }), newReminder(t, d.id, { channel: 'email', offsetDays: 1 })]);
      expect(second.map((r) => [r.offsetDays, r.channel])).to.deep.equal([[0, 'whatsapp'], [1, 'email']]);
      const all = await repos().reminders.listOfDebt(t.company.id, d.id);
      expect(all).to.have.length(4);
      const [email] = first as [Reminder];
      expect(await repos().reminders.findById(email.id)).to.deep.equal(email);
      expect(email).to.deep.include({ status: 'SCHEDULED', scheduledFor: T1, leaseUntil: T2, attempts: 0, recipient: null });
    });

    it('locks, updates and finds stale leases; a rolled-back transaction leaves the reminder as it was', async () => {
      const { t, debt } = await fixture();
      const d = await debt();
      const [r] = (await repos().reminders.insertMissing([newReminder(t, d.id, { leaseUntil: new Date(T1.getTime() + HOUR) })])) as [Reminder];
      const stale = async (now: Date) => (await repos().reminders.listStale(now, 1000)).map((x) => x.id);
      expect(await stale(T1)).to.not.include(r.id);
      expect(await stale(new Date(T1.getTime() + HOUR))).to.include(r.id);
      const updated = await uow().run(async (tx) => {
        expect((await tx.reminders.lockById(r.id))?.status).to.equal('SCHEDULED');
        return tx.reminders.update(r, { status: 'SENDING', attempts: 1, recipient: 'ana@example.com', leaseUntil: T2, updatedAt: T2 });
      });
      expect(updated).to.deep.equal({ ...r, status: 'SENDING', attempts: 1, recipient: 'ana@example.com', leaseUntil: T2, updatedAt: T2 });
      expect(await repos().reminders.findById(r.id), 'what update returns is what the row holds').to.deep.equal(updated);
      await uow().run(async (tx) => {
        await tx.reminders.update(updated, { status: 'SENT', sentAt: T2, providerMessageId: 'p-1', updatedAt: T2 });
        throw new Error('rolled back');
      }).catch(() => undefined);
      expect(await repos().reminders.findById(r.id)).to.deep.include({ status: 'SENDING', sentAt: null, providerMessageId: null });
      const failed = await repos().reminders.update(updated, { status: 'FAILED', failureReason: 'x'.repeat(600), updatedAt: T2 });
      expect(failed.failureReason, 'a failure reason is kept to 500 characters').to.equal('x'.repeat(500));
      expect(await repos().reminders.findById(r.id)).to.deep.equal(failed);
      const counts = await repos().reminders.counts();
      expect(counts.find((c) => c.channel === 'email' && c.status === 'FAILED')?.count).to.be.at.least(1);
    });
  });

  describe('ReminderRepository: listStale and counts', () => {
    it('lists SCHEDULED and SENDING reminders whose lease ended at or before now, oldest lease first, at most `limit`', async () => {
      const { t, debt } = await fixture();
      const d = await debt();
      // Leases in 1990, before every other test's: nothing else is stale at these instants.
      const lease = (minute: number) => new Date(Date.UTC(1990, 0, 1, 0, minute));
      const [late, early, sending, sent, failed] = (await repos().reminders.insertMissing([
        newReminder(t, d.id, { channel: 'email', leaseUntil: lease(3) }),
        newReminder(t, d.id, { channel: 'sms', leaseUntil: lease(1) }),
        newReminder(t, d.id, { channel: 'whatsapp', status: 'SENDING', leaseUntil: lease(2) }),
        newReminder(t, d.id, { channel: 'email', offsetDays: 1, status: 'SENT', sentAt: T1, leaseUntil: lease(0) }),
        newReminder(t, d.id, { channel: 'sms', offsetDays: 1, status: 'FAILED', leaseUntil: lease(0) }),
      ])) as [Reminder, Reminder, Reminder, Reminder, Reminder];
      const stale = async (now: Date, limit = 100) => (await repos().reminders.listStale(now, limit)).map((r) => r.id);
      expect(await stale(lease(3))).to.deep.equal([early.id, sending.id, late.id]);
      expect(await stale(lease(2)), 'a lease ending exactly now is stale').to.deep.equal([early.id, sending.id]);
      expect(await stale(lease(3), 2)).to.deep.equal([early.id, sending.id]);
      expect(await stale(lease(0))).to.deep.equal([]);
      expect(await stale(lease(3))).to.not.include.members([sent.id, failed.id]);
      expect((await repos().reminders.listStale(lease(3), 1))[0]).to.deep.equal(early);
    });

    it('counts reminders by channel and status across companies', async () => {
      const { t, debt } = await fixture();
      const d = await debt();
      const other = await fixture();
      const e = await other.debt();
      const count = async (channel: string, status: string) => (await repos().reminders.counts()).find((c) => c.channel === channel && c.status === status)?.count ?? 0;
      const before = { smsScheduled: await count('sms', 'SCHEDULED'), smsSent: await count('sms', 'SENT') };
      await repos().reminders.insertMissing([newReminder(t, d.id, { channel: 'sms' }), newReminder(other.t, e.id, { channel: 'sms' })]);
      await repos().reminders.insertMissing([newReminder(t, d.id, { channel: 'sms', offsetDays: 2, status: 'SENT', sentAt: T2 })]);
      expect(await count('sms', 'SCHEDULED')).to.equal(before.smsScheduled + 2);
      expect(await count('sms', 'SENT')).to.equal(before.smsSent + 1);
      for (const c of await repos().reminders.counts()) expect(c.count, `${c.channel}/${c.status}`).to.be.a('number').and.above(0);
    });
  });

  describe('ReminderRepository: lockById', () => {
    it('holds a second sender until the first commits: it reads SENDING, so a reminder is handed to one sender', async () => {
      const { t, debt } = await fixture();
      const d = await debt();
      const [r] = (await repos().reminders.insertMissing([newReminder(t, d.id)])) as [Reminder];
      // What a sender does: lock, and take the reminder only while it is SCHEDULED.
      const take = async (tx: Repositories, recipient: string) => {
        const locked = (await tx.reminders.lockById(r.id))!;
        if (locked.status !== 'SCHEDULED') return { took: false, seen: locked };
        await tx.reminders.update(locked, { status: 'SENDING', attempts: locked.attempts + 1, recipient, updatedAt: T2 });
        return { took: true, seen: locked };
      };
      const outcome = await contend(
        uow(),
        contention(),
        async (tx, hold) => {
          const locked = (await tx.reminders.lockById(r.id))!;
          await hold();
          return tx.reminders.update(locked, { status: 'SENDING', attempts: locked.attempts + 1, recipient: 'first@example.com', updatedAt: T2 });
        },
        (tx) => take(tx, 'second@example.com'),
      );
      expectWaited(outcome, contention());
      expect(outcome.second.took, 'the second sender saw it taken').to.equal(false);
      expect(outcome.second.seen).to.deep.include({ status: 'SENDING', attempts: 1, recipient: 'first@example.com' });
      expect(await repos().reminders.findById(r.id)).to.deep.include({ status: 'SENDING', attempts: 1, recipient: 'first@example.com' });
    });
  });

  describe('SandboxMessageLog', () => {
    it('keeps one message per reference and lists the messages of a debt through its reminders, oldest first', async () => {
      const { t, debt } = await fixture();
      const d = await debt();
      const [email, sms] = (await repos().reminders.insertMissing([newReminder(t, d.id, { channel: 'email' }), newReminder(t, d.id, { channel: 'sms' })])) as [Reminder, Reminder];
      const message = (r: Reminder, sentAt: Date) => ({
        channel: r.channel, to: 'ana@example.com', subject: null, body: 'hola', html: null, reference: `rem_${r.code}`, providerMessageId: `sbx_${uid()}`, unsubscribeUrl: null, sentAt,
      });
      const kept = await repos().sandboxMessages.record(message(sms, T2));
      const again = await repos().sandboxMessages.record(message(sms, T2));
      expect(again.providerMessageId, 'the first one is answered').to.equal(kept.providerMessageId);
      await repos().sandboxMessages.record({ ...message(email, T1), subject: 'Asunto', html: '<p>hola</p>', unsubscribeUrl: 'https://x.example/u' });
      expect(await repos().sandboxMessages.countByReference(`rem_${sms.code}`)).to.equal(1);
      const listed = await repos().sandboxMessages.listOfDebt(t.company.id, d.id);
      expect(listed.map((m) => [m.channel, m.subject, m.sentAt.toISOString()])).to.deep.equal([['email', 'Asunto', T1.toISOString()], ['sms', null, T2.toISOString()]]);
      expect(await repos().sandboxMessages.listOfDebt(t.company.id, d.id + 1_000_000)).to.deep.equal([]);
    });
  });
}
