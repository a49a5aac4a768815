import { effectiveLinkStatus, meetsListConditions, type PaymentLink } from '../../../internal/payment-links/payment-link';
import { ConflictError } from '../../../internal/shared/errors';
import { type Page, type PageRequest, pageOfMatches } from '../../../internal/shared/page';
import type {
  NewPaymentLink, PaymentLinkChanges, PaymentLinkFilter, PaymentLinkRepository, PaymentLinkView,
} from '../../../ports/payment-link-repository';
import { copy, type MemoryStore } from './memory-store';

export class MemoryPaymentLinkRepository implements PaymentLinkRepository {
  constructor(private readonly store: MemoryStore) {}

  private get rows(): PaymentLink[] {
    return this.store.tables.paymentLinks;
  }

  async insert(link: NewPaymentLink): Promise<PaymentLink> {
    const taken =
      link.externalPaymentLinkId !== null &&
      this.rows.some((l) => l.organizationId === link.organizationId && l.externalPaymentLinkId === link.externalPaymentLinkId);
    if (taken || this.rows.some((l) => l.code === link.code)) throw new ConflictError('Payment link already exists');
    const stored = { ...copy(link), id: this.store.nextId() };
    this.rows.push(stored);
    return copy(stored);
  }

  async findByCode(companyId: number, code: string): Promise<PaymentLinkView | null> {
    const link = this.rows.find((l) => l.companyId === companyId && l.code === code);
    return link ? this.view(link) : null;
  }

  async findByExternalPaymentLinkId(organizationId: number, externalPaymentLinkId: string): Promise<PaymentLinkView | null> {
    const link = this.rows.find((l) => l.organizationId === organizationId && l.externalPaymentLinkId === externalPaymentLinkId);
    return link ? this.view(link) : null;
  }

  lockByCode(companyId: number, code: string): Promise<PaymentLinkView | null> {
    return this.findByCode(companyId, code);
  }

  async lockById(companyId: number, id: number): Promise<PaymentLinkView | null> {
    const link = this.rows.find((l) => l.companyId === companyId && l.id === id);
    return link ? this.view(link) : null;
  }

  async findById(companyId: number, id: number): Promise<PaymentLinkView | null> {
    const link = this.rows.find((l) => l.companyId === companyId && l.id === id);
    return link ? this.view(link) : null;
  }

  async findByShortCode(shortCode: string): Promise<PaymentLinkView | null> {
    const link = this.rows.find((l) => l.shortCode === shortCode);
    return link ? this.view(link) : null;
  }

  async listByUrlIdentifier(companyId: number, urlIdentifier: string, limit: number): Promise<PaymentLinkView[]> {
    return this.rows
      .filter((l) => l.companyId === companyId && l.urlIdentifier === urlIdentifier && l.shortCode === null)
      .sort((a, b) => b.id - a.id)
      .slice(0, limit)
      .map((l) => this.view(l));
  }

  async update(companyId: number, id: number, changes: PaymentLinkChanges): Promise<PaymentLinkView> {
    const link = this.rows.find((l) => l.companyId === companyId && l.id === id);
    if (!link) throw new Error(`payment link ${id} vanished`);
    if (changes.description !== undefined) link.description = changes.description;
    if (changes.expiresAt !== undefined) link.expiresAt = changes.expiresAt;
    if (changes.metadata !== undefined) link.metadata = copy(changes.metadata);
    if (changes.status !== undefined) link.status = changes.status;
    if (changes.paymentsCount !== undefined) link.paymentsCount = changes.paymentsCount;
    link.updatedAt = changes.updatedAt;
    return this.view(link);
  }

  async list(companyId: number, filter: PaymentLinkFilter, page: PageRequest): Promise<Page<PaymentLinkView>> {
    const matches = this.rows
      .filter((l) => l.companyId === companyId && matchesFilter(l, filter))
      .sort((a, b) => compareKeys(a.externalPaymentLinkId, b.externalPaymentLinkId) || b.id - a.id);
    const found = pageOfMatches(matches, page);
    return { ...found, items: found.items.map((l) => this.view(l)) };
  }

  async markExpired(organizationId: number, now: Date, limit: number): Promise<PaymentLinkView[]> {
    const due = this.rows
      .filter((l) => l.organizationId === organizationId && effectiveLinkStatus(l, now) === 'EXPIRED' && l.status === 'ACTIVE')
      .sort((a, b) => a.expiresAt!.getTime() - b.expiresAt!.getTime() || a.id - b.id)
      .slice(0, limit);
    for (const link of due) {
      link.status = 'EXPIRED';
      link.updatedAt = now;
    }
    return due.sort((a, b) => a.id - b.id).map((l) => this.view(l));
  }

  private view(link: PaymentLink): PaymentLinkView {
    const product = link.productId === null ? undefined : this.store.tables.products.find((p) => p.id === link.productId);
    return copy({ ...link, product: product ? { id: product.id, name: product.name, active: product.active } : null });
  }
}

/** Descending, with links that have no key last (as the SQL adapter orders them). */
function compareKeys(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? 1 : -1;
}

function matchesFilter(l: PaymentLink, f: PaymentLinkFilter): boolean {
  return (
    (f.key === undefined || (l.organizationId === f.key.organizationId && l.externalPaymentLinkId === f.key.externalPaymentLinkId)) &&
    (f.code === undefined || l.code === f.code) &&
    meetsListConditions(l, f)
  );
}
