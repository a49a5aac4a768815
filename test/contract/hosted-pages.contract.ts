/**
 * What the hosted pages store and read: public payment links by identifier (never private
 * ones), links by short code and id, portal payments (receipts, one per form key and company)
 * and enrollment-page registrations (one per form key and company), rolled back with their
 * transaction.
 */
import { expect } from 'chai';
import type { PortalPayment } from '../../internal/portal/portal-payment';
import type { NewPageEnrollment, NewPortalPayment } from '../../ports/portal-repository';
import { expectConflict, linkViewOf, newContact, newDebt, newLink, newTenant, T1, T2, type TenantFixture, uid } from './fixtures';
import type { ContractContext } from './repositories.contract';

function newPayment(t: TenantFixture, debtId: number, overrides: Partial<NewPortalPayment> = {}): NewPortalPayment {
  return {
    organizationId: t.organization.id,
    companyId: t.company.id,
    code: `R${uid()}${uid()}`.slice(0, 22),
    submissionKey: `key${uid()}${uid()}`,
    debtId,
    paymentLinkId: null,
    subscriptionId: null,
    amountCents: 1_250,
    currency: 'MXN',
    method: 'CARD',
    processorReference: `sbx_${uid()}`,
    createdAt: T1,
    ...overrides,
  };
}

export function describeHostedPagesContract({ repos, uow }: ContractContext): void {
  describe('PaymentLinkRepository: hosted page lookups', () => {
    it('lists a company\'s public links by URL identifier, newest first, never private ones or another company\'s', async () => {
      const t = await newTenant(repos(), { companies: 2 });
      const ident = `ana-${uid()}`;
      const older = await repos().paymentLinks.insert(newLink(t, { urlIdentifier: ident, identifierValue: null }));
      const newer = await repos().paymentLinks.insert(newLink(t, { urlIdentifier: ident }));
      await repos().paymentLinks.insert(newLink(t, { urlIdentifier: ident, shortCode: `S${uid()}${uid()}` }));
      await repos().paymentLinks.insert(newLink({ ...t, company: t.companies[1]! }, { urlIdentifier: ident }));
      await repos().paymentLinks.insert(newLink(t, { urlIdentifier: `${ident}-x` }));
      expect(await repos().paymentLinks.listByUrlIdentifier(t.company.id, ident, 20)).to.deep.equal([linkViewOf(newer), linkViewOf(older)]);
      expect(await repos().paymentLinks.listByUrlIdentifier(t.company.id, ident, 1)).to.deep.equal([linkViewOf(newer)]);
      expect(await repos().paymentLinks.listByUrlIdentifier(t.company.id, 'nobody', 20)).to.deep.equal([]);
    });

    it('finds a link by its short code across companies, and by id within its company', async () => {
      const t = await newTenant(repos(), { companies: 2 });
      const shortCode = `S${uid()}${uid()}`;
      const link = await repos().paymentLinks.insert(newLink(t, { shortCode }));
      expect(await repos().paymentLinks.findByShortCode(shortCode)).to.deep.equal(linkViewOf(link));
      expect(await repos().paymentLinks.findByShortCode(`${shortCode}x`)).to.equal(null);
      expect(await repos().paymentLinks.findById(t.company.id, link.id)).to.deep.equal(linkViewOf(link));
      expect(await repos().paymentLinks.findById(t.companies[1]!.id, link.id)).to.equal(null);
    });
  });

  describe('PortalRepository', () => {
    async function fixture() {
      const t = await newTenant(repos(), { companies: 2 });
      const contact = await repos().contacts.insert(newContact(t.organization.id));
      const debt = await repos().debts.insert(newDebt({ ...t, contact }));
      return { t, debt };
    }

    it('round-trips a portal payment, found by receipt code and by its company\'s form key', async () => {
      const { t, debt } = await fixture();
      const link = await repos().paymentLinks.insert(newLink(t));
      const stored = await repos().portal.insertPayment(newPayment(t, debt.id, { paymentLinkId: link.id, method: 'BANK_TRANSFER', createdAt: T2 }));
      const expected: PortalPayment = { ...newPayment(t, debt.id), ...stored };
      expect(await repos().portal.findPaymentByCode(stored.code)).to.deep.equal(expected);
      expect(await repos().portal.findPaymentBySubmission(t.company.id, stored.submissionKey)).to.deep.equal(expected);
      expect(await repos().portal.findPaymentBySubmission(t.companies[1]!.id, stored.submissionKey)).to.equal(null);
      expect(await repos().portal.findPaymentByCode('nope')).to.equal(null);
      expect(stored).to.deep.include({ paymentLinkId: link.id, subscriptionId: null, method: 'BANK_TRANSFER', createdAt: T2, amountCents: 1_250 });
    });

    it('takes one payment per form key and company (another company may reuse the key), and one receipt per code', async () => {
      const { t, debt } = await fixture();
      const first = await repos().portal.insertPayment(newPayment(t, debt.id));
      await expectConflict(repos().portal.insertPayment(newPayment(t, debt.id, { submissionKey: first.submissionKey })));
      await expectConflict(repos().portal.insertPayment(newPayment(t, debt.id, { code: first.code })));
      const other = { ...t, company: t.companies[1]! };
      const contact = await repos().contacts.insert(newContact(t.organization.id));
      const otherDebt = await repos().debts.insert(newDebt({ ...other, contact }));
      expect((await repos().portal.insertPayment(newPayment(other, otherDebt.id, { submissionKey: first.submissionKey }))).companyId).to.equal(other.company.id);
    });

    it('rolls a payment back with its transaction', async () => {
      const { t, debt } = await fixture();
      const payment = newPayment(t, debt.id);
      const failure = await uow()
        .run(async (tx) => {
          await tx.portal.insertPayment(payment);
          throw new Error('rolled back');
        })
        .catch((e: Error) => e.message);
      expect(failure).to.equal('rolled back');
      expect(await repos().portal.findPaymentBySubmission(t.company.id, payment.submissionKey)).to.equal(null);
    });

    it('records an enrollment-page registration once per form key and company', async () => {
      const { t } = await fixture();
      const method = await repos().paymentMethods.insert({
        organizationId: t.organization.id, companyId: t.company.id, code: `pm${uid()}`, externalClientId: 'ana', type: 'BANK_ACCOUNT',
        isDefault: true, status: 'ACTIVE', maskedReference: 'CLABE •••• 7771', createdAt: T1,
      });
      const enrollment: NewPageEnrollment = {
        organizationId: t.organization.id, companyId: t.company.id, submissionKey: `key${uid()}`, externalClientId: 'ana', paymentMethodId: method.id, createdAt: T1,
      };
      const stored = await repos().portal.insertEnrollment(enrollment);
      expect(stored).to.deep.equal({ ...enrollment, id: stored.id });
      expect(await repos().portal.findEnrollmentBySubmission(t.company.id, enrollment.submissionKey)).to.deep.equal(stored);
      expect(await repos().portal.findEnrollmentBySubmission(t.companies[1]!.id, enrollment.submissionKey)).to.equal(null);
      await expectConflict(repos().portal.insertEnrollment(enrollment));
    });
  });
}
