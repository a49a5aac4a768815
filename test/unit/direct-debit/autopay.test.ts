import { expect } from 'chai';
import fc from 'fast-check';
import {
  autopayAfterEmission,
  autopayBeforeMethods,
  autopayFromDefault,
  type AutopayOutcome,
} from '../../../internal/direct-debit/autopay';
import type { PaymentMethodReference, PaymentMethodType } from '../../../internal/direct-debit/payment-method';
import type { Company } from '../../../internal/tenancy/company';

function company(overrides: Partial<Company> = {}): Company {
  return {
    id: 1, organizationId: 1, code: 'ACME', name: 'Acme', defaultCurrency: null,
    directDebitEnabled: false, directDebitModality: false, privateLinks: false, portalUrl: null,
    ...overrides,
  };
}

function method(type: PaymentMethodType): PaymentMethodReference {
  return {
    id: 9, organizationId: 1, companyId: 1, code: 'pmcode', externalClientId: 'u-1', type,
    isDefault: true, status: 'ACTIVE', maskedReference: null, createdAt: new Date(0),
  };
}

/** The whole evaluation, as the creation paths compose it. */
function evaluate(c: Company, product: { id: number } | null, defaultMethod: PaymentMethodReference | null, emitted: boolean): AutopayOutcome {
  const verdict = autopayBeforeMethods(c, product) ?? autopayFromDefault(defaultMethod);
  return autopayAfterEmission(verdict, emitted);
}

const on = company({ directDebitEnabled: true, directDebitModality: true });
const product = { id: 7 };

describe('direct debit: autopay evaluation (internal/direct-debit/autopay.ts)', () => {
  it('without a product: NO_PRODUCT, whatever the company settings and methods', () => {
    expect(evaluate(company(), null, null, true)).to.deep.equal({ autopay: false, reason: 'NO_PRODUCT' });
    expect(evaluate(on, null, method('BANK_ACCOUNT'), true)).to.deep.equal({ autopay: false, reason: 'NO_PRODUCT' });
  });

  it('the company feature off: DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY, before the modality', () => {
    const expected = { autopay: false, reason: 'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY' };
    expect(evaluate(company(), product, method('BANK_ACCOUNT'), true)).to.deep.equal(expected);
    expect(evaluate(company({ directDebitModality: true }), product, null, true)).to.deep.equal(expected);
  });

  it('feature on without a product modality: COMPANY_WITHOUT_PRODUCT_MODALITY', () => {
    expect(evaluate(company({ directDebitEnabled: true }), product, method('BANK_ACCOUNT'), true)).to.deep.equal({
      autopay: false,
      reason: 'COMPANY_WITHOUT_PRODUCT_MODALITY',
    });
  });

  it('decides steps 1 to 3 without the user (null means: look up the default method now)', () => {
    expect(autopayBeforeMethods(on, product)).to.equal(null);
    expect(autopayBeforeMethods(on, null)).to.deep.equal({ autopay: false, reason: 'NO_PRODUCT' });
  });

  it('no default method: NO_DEFAULT_PAYMENT_METHOD', () => {
    expect(evaluate(on, product, null, true)).to.deep.equal({ autopay: false, reason: 'NO_DEFAULT_PAYMENT_METHOD' });
  });

  it('a tokenized card as default: DEFAULT_PAYMENT_METHOD_TYPE_NOT_SUPPORTED', () => {
    expect(evaluate(on, product, method('CARD_TOKENIZED'), true)).to.deep.equal({
      autopay: false,
      reason: 'DEFAULT_PAYMENT_METHOD_TYPE_NOT_SUPPORTED',
    });
  });

  it('a bank account as default and the adhesion request emitted: autopay true with the method as instrument', () => {
    const bank = method('BANK_ACCOUNT');
    expect(evaluate(on, product, bank, true)).to.deep.equal({ autopay: true, instrument: bank });
  });

  it('the adhesion request not emitted: ADHESION_EVENT_FAILED', () => {
    expect(evaluate(on, product, method('BANK_ACCOUNT'), false)).to.deep.equal({ autopay: false, reason: 'ADHESION_EVENT_FAILED' });
  });

  it('property: the reason is the first failing check in the specification order, and true only when all pass', () => {
    fc.assert(
      fc.property(
        fc.boolean(), fc.boolean(), fc.boolean(), fc.constantFrom(null, 'BANK_ACCOUNT', 'CARD_TOKENIZED'), fc.boolean(),
        (hasProduct, enabled, modality, type, emitted) => {
          const m = type === null ? null : method(type as PaymentMethodType);
          const outcome = evaluate(company({ directDebitEnabled: enabled, directDebitModality: modality }), hasProduct ? product : null, m, emitted);
          const reason = !hasProduct
            ? 'NO_PRODUCT'
            : !enabled
              ? 'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY'
              : !modality
                ? 'COMPANY_WITHOUT_PRODUCT_MODALITY'
                : m === null
                  ? 'NO_DEFAULT_PAYMENT_METHOD'
                  : m.type !== 'BANK_ACCOUNT'
                    ? 'DEFAULT_PAYMENT_METHOD_TYPE_NOT_SUPPORTED'
                    : !emitted
                      ? 'ADHESION_EVENT_FAILED'
                      : null;
          expect(outcome).to.deep.equal(reason === null ? { autopay: true, instrument: m } : { autopay: false, reason });
        },
      ),
    );
  });
});
