/**
 * Fixtures of the repository contract suites: tenants, contacts, products, debts and links built
 * through the ports, each test with its own organization.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import type { DomainEvent } from '../../internal/events/domain-event';
import type { EventType } from '../../internal/events/event-type';
import type { Contact, Phone } from '../../internal/contacts/contact';
import type { Debt } from '../../internal/debts/debt';
import type { PaymentLink } from '../../internal/payment-links/payment-link';
import type { Product } from '../../internal/products/product';
import { ConflictError } from '../../internal/shared/errors';
import type { Company } from '../../internal/tenancy/company';
import type { ApiKeyKind, ApiKeyRecord, AppEnv, ClientUser } from '../../internal/tenancy/credentials';
import type { Organization } from '../../internal/tenancy/organization';
import type { NewContact } from '../../ports/contact-repository';
import type { DebtView, ListedDebt, NewDebt } from '../../ports/debt-repository';
import type { NewPaymentLink, PaymentLinkView } from '../../ports/payment-link-repository';
import type { NewProduct } from '../../ports/product-repository';
import type { Repositories } from '../../ports/unit-of-work';


export const uid = (): string => crypto.randomBytes(6).toString('hex');
export const hash = (): string => crypto.randomBytes(32).toString('hex');
export const at = (iso: string): Date => new Date(iso);
export const T1 = at('2026-03-04T05:06:07.089Z');
export const T2 = at('2026-05-06T07:08:09.123Z');
export const HOUR = 3_600_000;

export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

export async function expectConflict(promise: Promise<unknown>): Promise<void> {
  const error = await rejectionOf(promise);
  expect(error).to.be.instanceOf(ConflictError);
  expect((error as ConflictError).code).to.equal('RESOURCE_CONFLICT');
}

export interface TenantFixture {
  organization: Organization;
  companies: Company[];
  company: Company;
  user: ClientUser;
}

export function companyInput(organizationId: number, code: string, overrides: Partial<Company> = {}): Omit<Company, 'id'> {
  return {
    organizationId,
    code,
    name: `Company ${code}`,
    defaultCurrency: null,
    directDebitEnabled: false,
    directDebitModality: false,
    privateLinks: false,
    portalUrl: null,
    ...overrides,
  };
}

/** An organization with `companies` companies and one client user allowed on all of them. */
export async function newTenant(repos: Repositories, options: { companies?: number } = {}): Promise<TenantFixture> {
  const suffix = uid();
  const organization = await repos.tenancy.insertOrganization(`Org ${suffix}`, T1);
  const companies: Company[] = [];
  for (let i = 0; i < (options.companies ?? 1); i++) {
    companies.push(await repos.tenancy.insertCompany(companyInput(organization.id, `C${i}-${suffix}`.toUpperCase())));
  }
  const user = await repos.credentials.insertClientUser(
    { organizationId: organization.id, username: `user_${suffix}`, passwordHash: `hash-${suffix}`, disabled: false, createdAt: T1 },
    companies.map((c) => c.id),
  );
  return { organization, companies, company: companies[0]!, user };
}

export function apiKey(user: ClientUser, kind: ApiKeyKind, appEnv: AppEnv = 'development'): ApiKeyRecord {
  return { organizationId: user.organizationId, clientUserId: user.id, kind, appEnv, keyHash: hash(), prefix: kind === 'facade' ? 'ck_dev_' : 'lk_dev_', createdAt: T1 };
}

export function newContact(organizationId: number, overrides: Partial<NewContact> = {}): NewContact {
  const suffix = uid();
  return {
    organizationId,
    code: `c${suffix}`,
    externalClientId: `ext-${suffix}`,
    name: `Contact ${suffix}`,
    email: `${suffix}@example.com`,
    phones: [],
    createdAt: T1,
    ...overrides,
  };
}

export function newProduct(company: Company, overrides: Partial<NewProduct> = {}): NewProduct {
  return {
    organizationId: company.organizationId,
    companyId: company.id,
    name: `Product ${uid()}`,
    externalProductId: null,
    active: true,
    createdAt: T1,
    ...overrides,
  };
}

export function phone(number: string, overrides: Partial<Phone> = {}): Phone {
  return { number, type: 'MOBILE', primary: false, description: 'MOBILE', ...overrides };
}

export const codes = (items: Contact[]): string[] => items.map((c) => c.code);
export const ids = (items: Product[]): number[] => items.map((p) => p.id);
export const PAGE = { page: 1, limit: 50 };

export interface DebtFixture extends TenantFixture {
  contact: Contact;
  product: Product;
}

/** A PENDING debt of 100.00 due 2026-06-01, owed by the fixture's contact, without product or payment link. */
export function newDebt(t: { organization: Organization; company: Company; contact: Contact }, overrides: Partial<NewDebt> = {}): NewDebt {
  return {
    organizationId: t.organization.id,
    companyId: t.company.id,
    externalRequestId: `req-${uid()}`,
    batchId: null,
    contactId: t.contact.id,
    contactCreatedInline: false,
    // Reads give null for these references when absent: the input says so explicitly.
    paymentLinkId: null,
    subscriptionId: null,
    productId: null,
    status: 'PENDING',
    amountCents: 10_000,
    amountPaidCents: 0,
    currency: 'MXN',
    dueDate: '2026-06-01',
    allowOverduePayment: true,
    allowPartialPayments: true,
    description: null,
    additionalData: null,
    paymentMethods: null,
    autopay: false,
    autopayReason: null,
    autopayPaymentMethodId: null,
    createdAt: T1,
    updatedAt: T1,
    ...overrides,
  };
}

/** What a read returns for a stored debt: the row plus its embedded contact and product. */
export function viewOf(debt: Debt, contact: Contact, product: Product | null): DebtView {
  return {
    ...debt,
    contact: { code: contact.code, externalClientId: contact.externalClientId },
    product: product && { id: product.id, name: product.name, active: product.active },
    autopayInstrument: null,
  };
}

/** What a page of debts holds of a debt's view (ListedDebt). */
export function listedOf(view: DebtView): ListedDebt {
  const { organizationId: _o, updatedAt: _u, paymentLinkId: _l, subscriptionId: _s, autopay: _a, autopayReason: _r, autopayPaymentMethodId: _m, autopayInstrument: _i, ...shown } = view;
  return shown;
}

export const requestIds = (items: Pick<Debt, 'externalRequestId'>[]): string[] => items.map((d) => d.externalRequestId);
export const sortById = <T extends { id: number }>(items: T[]): T[] => [...items].sort((a, b) => a.id - b.id);

/**
 * An ACTIVE single-use link of 100.00 expiring at T2, with neither key, debtor, product nor
 * metadata. Its description doubles as a label the list tests read back.
 */
export function newLink(t: { organization: Organization; company: Company }, overrides: Partial<NewPaymentLink> = {}): NewPaymentLink {
  const code = `L${uid()}${uid()}`;
  return {
    organizationId: t.organization.id,
    companyId: t.company.id,
    code,
    externalPaymentLinkId: null,
    debtExternalRequestId: `plk_${code}`,
    status: 'ACTIVE',
    amountCents: 10_000,
    currency: 'MXN',
    description: `Link ${code}`,
    singleUse: true,
    expiresAt: T2,
    successUrl: null,
    metadata: null,
    identifierValue: 'org-abcdefghij',
    urlIdentifier: 'org-abcdefghij',
    shortCode: null,
    productId: null,
    productCreatedInline: false,
    contactId: null,
    paymentsCount: 0,
    createdAt: T1,
    updatedAt: T1,
    ...overrides,
  };
}

/** What a read returns for a stored link: the row plus its embedded product. */
export function linkViewOf(link: PaymentLink, product: Product | null = null): PaymentLinkView {
  return { ...link, product: product && { id: product.id, name: product.name, active: product.active } };
}

export const labels = (items: PaymentLink[]): string[] => items.map((l) => l.description);


/** An event about a product of the tenant's company, as a use case would append it. */
export function productEvent(t: TenantFixture, product: Product, type: EventType = 'product.created'): DomainEvent {
  return {
    type,
    organizationId: t.organization.id,
    company: t.company,
    subject: { kind: 'product', product },
    occurredAt: T1,
    requestId: null,
    clientUserId: null,
    apiKeyPrefix: null,
  };
}
