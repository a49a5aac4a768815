import type { IdGenerator } from '../../../ports/id-generator';
import type { PaymentLinkView } from '../../../ports/payment-link-repository';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import type { DebtorRef } from '../../debts/debt-draft';
import { newDebt, viewOf } from '../../debts/new-debt';
import { resolveDebtor, type ResolvedDebtor } from '../../debts/resolve-debtor';
import { findOrCreateProductByName } from '../../debts/resolve-product';
import { eventOf } from '../../events/domain-event';
import { utcDateOf } from '../../shared/calendar-date';
import type { Currency } from '../../shared/currency';
import { ConflictError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { assertFutureExpiry, PAYMENT_LINK_ID_PREFIX, sanitizeIdentifier, syntheticIdentifier } from '../payment-link';

export interface CreatePaymentLinkInput {
  amountCents: number;
  description: string;
  expiresAt: Date;
  currency?: Currency;
  /** From the body, else the Idempotency-Key header; none means a new link every time. */
  externalPaymentLinkId?: string;
  singleUse?: boolean;
  successUrl?: string;
  metadata?: Record<string, unknown>;
  identifierValue?: string;
  debtor?: DebtorRef;
  productName?: string;
  additionalData?: Record<string, unknown>;
}

export const LINK_CODE_LENGTH = 20;
/** 16 base62 characters: about 95 bits, far past the 64 an unguessable code needs. */
export const SHORT_CODE_LENGTH = 16;
const SYNTHETIC_IDENTIFIER_LENGTH = 10;

/**
 * POST /payment-links: the link and its associated debt (due on the UTC date of expiresAt) in
 * one transaction, with the inline contact or product it needs and the payment_link.created and
 * debt.created events. A repeated
 * externalPaymentLinkId is 409 and writes nothing, also when two requests race.
 */
export class CreatePaymentLink {
  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; ids: IdGenerator }) {
    requireDeps('CreatePaymentLink', deps);
  }

  async execute(input: CreatePaymentLinkInput, scope: TenantScope): Promise<PaymentLinkView> {
    assertFutureExpiry(input.expiresAt, scope.clock.now());
    const explicitIdentifier = input.identifierValue === undefined ? undefined : sanitizeIdentifier(input.identifierValue);
    try {
      return await this.create(input, explicitIdentifier, scope);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      // The link key itself is taken: that is the answer. Otherwise a concurrent request created
      // the same inline contact or product first: run again, they now exist.
      if (await this.keyTaken(input, scope)) throw conflict(input.externalPaymentLinkId!);
      return this.create(input, explicitIdentifier, scope);
    }
  }

  private create(input: CreatePaymentLinkInput, explicitIdentifier: string | undefined, scope: TenantScope): Promise<PaymentLinkView> {
    // A taken externalPaymentLinkId is found by the link's INSERT (the unique key), not read first:
    // its ConflictError rolls the transaction back whole (with the group it ran in, whose other
    // works then run alone) and execute() answers 409.
    return this.deps.uow.runGrouped(scope.organizationId, async (tx) => {
      const debtor = input.debtor ? await resolveDebtor({ ...tx, ids: this.deps.ids }, input.debtor, scope) : null;
      const product = input.productName ? await findOrCreateProductByName(tx, input.productName, scope) : null;
      const now = scope.clock.now();
      const code = this.deps.ids.alphanumeric(LINK_CODE_LENGTH);
      const identifier = explicitIdentifier ?? identifierOf(debtor, scope, this.deps.ids);
      const link = await tx.paymentLinks.insert({
        organizationId: scope.organizationId,
        companyId: scope.company.id,
        code,
        externalPaymentLinkId: input.externalPaymentLinkId ?? null,
        debtExternalRequestId: PAYMENT_LINK_ID_PREFIX + code,
        status: 'ACTIVE',
        amountCents: input.amountCents,
        currency: input.currency ?? scope.company.defaultCurrency ?? 'MXN',
        description: input.description,
        singleUse: input.singleUse ?? true,
        expiresAt: input.expiresAt,
        successUrl: input.successUrl ?? null,
        metadata: input.metadata ?? null,
        // Rule 3: with a known debtor the identifier is not returned; the URL uses the debtor's.
        identifierValue: debtor ? null : identifier,
        urlIdentifier: debtor ? (debtorIdentifier(debtor) ?? identifier) : identifier,
        shortCode: scope.company.privateLinks ? this.deps.ids.alphanumeric(SHORT_CODE_LENGTH) : null,
        productId: product?.product.id ?? null,
        productCreatedInline: product?.createdInline ?? false,
        contactId: debtor?.contact.id ?? null,
        paymentsCount: 0,
        createdAt: now,
        updatedAt: now,
      });
      const debt = await tx.debts.insert({
        ...newDebt(
          {
            amountCents: input.amountCents,
            dueDate: utcDateOf(input.expiresAt),
            currency: link.currency,
            description: input.description,
            allowPartialPayments: false,
            allowOverduePayment: false,
            additionalData: input.additionalData,
            evaluateAutopay: false,
          },
          { externalRequestId: link.debtExternalRequestId, batchId: null, ...linkDebtor(debtor), product: product?.product ?? null },
          scope,
        ),
        paymentLinkId: link.id,
        // The link and its debt are one creation: the same instant, not two clock readings.
        createdAt: now,
        updatedAt: now,
      });
      // The view is the link as written and its product: no read back.
      const created: PaymentLinkView = { ...link, product: product && { id: product.product.id, name: product.product.name, active: product.product.active } };
      await tx.events.append([
        eventOf(scope, 'payment_link.created', { kind: 'payment_link', link: created }, now),
        eventOf(scope, 'debt.created', { kind: 'debt', debt: viewOf(debt, debtor?.contact ?? null, product?.product ?? null) }, now),
      ]);
      return created;
    });
  }

  private async keyTaken(input: CreatePaymentLinkInput, scope: TenantScope): Promise<boolean> {
    if (input.externalPaymentLinkId === undefined) return false;
    return (await this.deps.repos.paymentLinks.findByExternalPaymentLinkId(scope.organizationId, input.externalPaymentLinkId)) !== null;
  }
}

function conflict(key: string): ConflictError {
  return new ConflictError(`A payment link with externalPaymentLinkId ${key} already exists`);
}

/** Rule 2: the debtor's identifier when known, else a synthetic one from the organization name. */
function identifierOf(debtor: ResolvedDebtor | null, scope: TenantScope, ids: IdGenerator): string {
  return (debtor && debtorIdentifier(debtor)) ?? syntheticIdentifier(scope.organizationName, ids.alphanumeric(SYNTHETIC_IDENTIFIER_LENGTH));
}

/** The debtor's externalClientId as an identifier; null when nothing URL-safe is left of it. */
function debtorIdentifier(debtor: ResolvedDebtor): string | null {
  try {
    return sanitizeIdentifier(debtor.contact.externalClientId);
  } catch {
    return null;
  }
}

function linkDebtor(debtor: ResolvedDebtor | null): { contact: ResolvedDebtor['contact'] | null; createdInline: boolean } {
  return debtor ?? { contact: null, createdInline: false };
}
