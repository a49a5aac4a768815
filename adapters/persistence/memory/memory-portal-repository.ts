import type { PageEnrollment } from '../../../internal/direct-debit/page-enrollment';
import type { PortalPayment } from '../../../internal/portal/portal-payment';
import { ConflictError } from '../../../internal/shared/errors';
import type { NewPageEnrollment, NewPortalPayment, PortalRepository } from '../../../ports/portal-repository';
import { copy, type MemoryStore } from './memory-store';

export class MemoryPortalRepository implements PortalRepository {
  constructor(private readonly store: MemoryStore) {}

  async insertPayment(payment: NewPortalPayment): Promise<PortalPayment> {
    const rows = this.store.tables.portalPayments;
    if (rows.some((p) => p.code === payment.code || (p.companyId === payment.companyId && p.submissionKey === payment.submissionKey))) {
      throw new ConflictError('Portal payment already exists');
    }
    const stored = { ...copy(payment), id: this.store.nextId() };
    rows.push(stored);
    return copy(stored);
  }

  async findPaymentByCode(code: string): Promise<PortalPayment | null> {
    return copy(this.store.tables.portalPayments.find((p) => p.code === code) ?? null);
  }

  async findPaymentBySubmission(companyId: number, submissionKey: string): Promise<PortalPayment | null> {
    return copy(this.store.tables.portalPayments.find((p) => p.companyId === companyId && p.submissionKey === submissionKey) ?? null);
  }

  async insertEnrollment(enrollment: NewPageEnrollment): Promise<PageEnrollment> {
    const rows = this.store.tables.portalEnrollments;
    if (rows.some((e) => e.companyId === enrollment.companyId && e.submissionKey === enrollment.submissionKey)) {
      throw new ConflictError('Page enrollment already exists');
    }
    const stored = { ...copy(enrollment), id: this.store.nextId() };
    rows.push(stored);
    return copy(stored);
  }

  async findEnrollmentBySubmission(companyId: number, submissionKey: string): Promise<PageEnrollment | null> {
    return copy(this.store.tables.portalEnrollments.find((e) => e.companyId === companyId && e.submissionKey === submissionKey) ?? null);
  }
}
