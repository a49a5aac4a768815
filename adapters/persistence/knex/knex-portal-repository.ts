import type { Knex } from 'knex';
import type { PaymentMethod } from '../../../internal/debts/debt';
import type { PageEnrollment } from '../../../internal/direct-debit/page-enrollment';
import type { PortalPayment } from '../../../internal/portal/portal-payment';
import type { Currency } from '../../../internal/shared/currency';
import type { NewPageEnrollment, NewPortalPayment, PortalRepository } from '../../../ports/portal-repository';
import { insertedIdOrConflict } from './shared-transaction';
import { fromMillis, toMillis } from './rows/columns';

type Row = Record<string, any>;

export class KnexPortalRepository implements PortalRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async insertPayment(payment: NewPortalPayment): Promise<PortalPayment> {
    const row = {
      organization_id: payment.organizationId,
      company_id: payment.companyId,
      code: payment.code,
      submission_key: payment.submissionKey,
      debt_id: payment.debtId,
      payment_link_id: payment.paymentLinkId,
      subscription_id: payment.subscriptionId,
      amount_cents: payment.amountCents,
      currency: payment.currency,
      method: payment.method,
      processor_reference: payment.processorReference,
      created_at: toMillis(payment.createdAt),
    };
    const id = await insertedIdOrConflict(this.db, 'Portal payment', 'portal_payments', row);
    return { ...payment, id: Number(id) };
  }

  async findPaymentByCode(code: string): Promise<PortalPayment | null> {
    const row = await this.db('portal_payments').where({ code }).first();
    return row ? toPayment(row) : null;
  }

  async findPaymentBySubmission(companyId: number, submissionKey: string): Promise<PortalPayment | null> {
    const row = await this.db('portal_payments').where({ company_id: companyId, submission_key: submissionKey }).first();
    return row ? toPayment(row) : null;
  }

  async insertEnrollment(enrollment: NewPageEnrollment): Promise<PageEnrollment> {
    const row = {
      organization_id: enrollment.organizationId,
      company_id: enrollment.companyId,
      submission_key: enrollment.submissionKey,
      external_client_id: enrollment.externalClientId,
      payment_method_id: enrollment.paymentMethodId,
      created_at: toMillis(enrollment.createdAt),
    };
    const id = await insertedIdOrConflict(this.db, 'Page enrollment', 'portal_enrollments', row);
    return { ...enrollment, id: Number(id) };
  }

  async findEnrollmentBySubmission(companyId: number, submissionKey: string): Promise<PageEnrollment | null> {
    const row = await this.db('portal_enrollments').where({ company_id: companyId, submission_key: submissionKey }).first();
    return row
      ? {
          id: Number(row.id),
          organizationId: Number(row.organization_id),
          companyId: Number(row.company_id),
          submissionKey: row.submission_key,
          externalClientId: row.external_client_id,
          paymentMethodId: Number(row.payment_method_id),
          createdAt: fromMillis(row.created_at),
        }
      : null;
  }
}

function toPayment(row: Row): PortalPayment {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    companyId: Number(row.company_id),
    code: row.code,
    submissionKey: row.submission_key,
    debtId: Number(row.debt_id),
    paymentLinkId: row.payment_link_id === null ? null : Number(row.payment_link_id),
    subscriptionId: row.subscription_id === null ? null : Number(row.subscription_id),
    amountCents: Number(row.amount_cents),
    currency: row.currency as Currency,
    method: row.method as PaymentMethod,
    processorReference: row.processor_reference,
    createdAt: fromMillis(row.created_at),
  };
}
