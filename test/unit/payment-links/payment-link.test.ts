import { expect } from 'chai';
import fc from 'fast-check';
import type { Application } from '../../../internal/application';
import type { CreatePaymentLinkInput } from '../../../internal/payment-links/commands/create-payment-link';
import type { UpdatePaymentLinkInput } from '../../../internal/payment-links/commands/update-payment-link';
import {
  assertFutureExpiry,
  assertLinkEditable,
  assertLinkPayable,
  effectiveLinkStatus,
  meetsListConditions,
  PAYMENT_LINK_STATUSES,
  type PaymentLinkStatus,
  paymentLinkCodeFromId,
  sanitizeIdentifier,
  syntheticIdentifier,
} from '../../../internal/payment-links/payment-link';
import type { ListPaymentLinksInput } from '../../../internal/payment-links/queries/list-payment-links';
import { BusinessRuleViolationError, ConflictError, InvalidRequestError, NotFoundError } from '../../../internal/shared/errors';
import type { PageRequest } from '../../../internal/shared/page';
import type { TenantScope } from '../../../internal/shared/tenant-scope';
import type { DebtView } from '../../../ports/debt-repository';
import type { PaymentLinkView } from '../../../ports/payment-link-repository';
import { listedOf } from '../../contract/fixtures';
import { type MemoryWorld, memoryWorld } from '../../support/memory-world';

// ---------------------------------------------------------------------------------------------
// Helpers

/** 15:00Z on 2031-05-10: "now" for every scope unless a test moves the clock. */
const T0 = new Date('2031-05-10T15:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PAGE: PageRequest = { page: 1, limit: 500 };
const after = (ms: number, from: Date = T0): Date => new Date(from.getTime() + ms);

/** The error a call throws or a promise rejects with; fails the test when there is none. */
async function failure(run: (() => unknown) | Promise<unknown>): Promise<Error> {
  try {
    await (typeof run === 'function' ? run() : run);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error, but there was none');
}

async function expectInvalidField(run: (() => unknown) | Promise<unknown>, field: string): Promise<InvalidRequestError> {
  const error = await failure(run);
  expect(error, String(error)).to.be.instanceOf(InvalidRequestError);
  expect((error as InvalidRequestError).code).to.equal('INVALID_REQUEST');
  expect((error as InvalidRequestError).details.map((d) => d.field)).to.deep.equal([field]);
  return error as InvalidRequestError;
}

async function expectRuleViolation(run: (() => unknown) | Promise<unknown>): Promise<string> {
  const error = await failure(run);
  expect(error, String(error)).to.be.instanceOf(BusinessRuleViolationError);
  expect((error as BusinessRuleViolationError).code).to.equal('BUSINESS_RULE_VIOLATION');
  return error.message;
}

async function expectConflict(run: Promise<unknown>): Promise<void> {
  const error = await failure(run);
  expect(error, String(error)).to.be.instanceOf(ConflictError);
  expect((error as ConflictError).code).to.equal('RESOURCE_CONFLICT');
}

async function expectNotFound(run: Promise<unknown>): Promise<void> {
  const error = await failure(run);
  expect(error, String(error)).to.be.instanceOf(NotFoundError);
  expect((error as NotFoundError).code).to.equal('RESOURCE_NOT_FOUND');
}

/** A link as the status rules see it. */
const linkState = (status: PaymentLinkStatus, expiresAt: Date | null = after(HOUR)) => ({ status, expiresAt });

type World = MemoryWorld;

/** Everything in memory, time held at T0. */
const world = (): World => memoryWorld(T0);

// ---------------------------------------------------------------------------------------------
// Domain

describe('payment links: domain', () => {
  describe('sanitizeIdentifier', () => {
    const cases: [string, string, string][] = [
      ['keeps an already sanitized value', 'abc-123', 'abc-123'],
      ['lowercases', 'ABC-Def', 'abc-def'],
      ['removes accents and tildes', 'José Ñúñez Çà', 'jose-nunez-ca'],
      ['folds decomposed accents too', 'Jose\u0301 Pe\u0301rez', 'jose-perez'],
      ['turns a space into a hyphen', 'Hello World', 'hello-world'],
      ['turns a run of whitespace into one hyphen', 'a  b\t\nc', 'a-b-c'],
      ['turns underscores into hyphens', 'snake_case__name', 'snake-case-name'],
      ['collapses hyphens made from spaces around a hyphen', 'a - b', 'a-b'],
      ['collapses repeated hyphens', 'a---b--c', 'a-b-c'],
      ['drops other symbols', 'Order #42 (VIP)!', 'order-42-vip'],
      ['drops dots, slashes, at signs and quotes', `a.b/c@d'e"f`, 'abcdef'],
      ['drops emoji and non-Latin letters', '📱phone Ωmega 猫', 'phone-mega'],
      ['drops leading hyphens', '--abc', 'abc'],
      ['drops leading and trailing spaces and underscores', '  _abc_ ', 'abc'],
      ['drops trailing hyphens', 'abc---', 'abc'],
      ['keeps digits', '2031 05 10', '2031-05-10'],
    ];
    for (const [title, input, expected] of cases) {
      it(`${title}: ${JSON.stringify(input)} → ${expected}`, () => {
        expect(sanitizeIdentifier(input)).to.equal(expected);
      });
    }

    it('cuts the sanitized value to 64 characters', () => {
      expect(sanitizeIdentifier('a'.repeat(70))).to.equal('a'.repeat(64));
      expect(sanitizeIdentifier('b'.repeat(64))).to.equal('b'.repeat(64));
    });

    it('cuts after sanitizing: dropped symbols and accents do not count', () => {
      expect(sanitizeIdentifier('!'.repeat(10) + 'c'.repeat(64))).to.equal('c'.repeat(64));
      expect(sanitizeIdentifier('É'.repeat(64))).to.equal('e'.repeat(64));
    });

    it('drops the hyphens the 64-character cut leaves at the end', () => {
      expect(sanitizeIdentifier(`${'a'.repeat(63)} b`)).to.equal('a'.repeat(63));
      expect(sanitizeIdentifier(`${'a'.repeat(63)}_____tail`)).to.equal('a'.repeat(63));
      expect(sanitizeIdentifier(`${'a'.repeat(62)} bcd`)).to.equal(`${'a'.repeat(62)}-b`);
    });

    for (const input of ['', '   ', '!!!', '---', '___', ' - _ ', '😀🎉', '¿¡', '猫']) {
      it(`refuses ${JSON.stringify(input)}, empty after sanitizing: INVALID_REQUEST on identifierValue`, async () => {
        const error = await expectInvalidField(() => sanitizeIdentifier(input), 'identifierValue');
        expect(error.details[0]!.issue).to.be.a('string').and.not.equal('');
      });
    }

    it('names the field it is given', async () => {
      await expectInvalidField(() => sanitizeIdentifier('@@@', 'externalClientId'), 'externalClientId');
    });
  });

  describe('syntheticIdentifier', () => {
    it('takes the first 3 sanitized alphanumerics of the organization name, a hyphen and the random text', () => {
      expect(syntheticIdentifier('Acme Corp', 'k3x9q2m1zz')).to.equal('acm-k3x9q2m1zz');
    });

    it('lowercases the random text', () => {
      expect(syntheticIdentifier('Acme', 'AbC123XyZ9')).to.equal('acm-abc123xyz9');
    });

    it('folds accents and skips spaces, hyphens, underscores and symbols in the name', () => {
      expect(syntheticIdentifier('Ñandú S.A.', 'r')).to.equal('nan-r');
      expect(syntheticIdentifier('  A-B_C d', 'r')).to.equal('abc-r');
      expect(syntheticIdentifier('É.Z!k', 'r')).to.equal('ezk-r');
    });

    it('counts digits as alphanumerics', () => {
      expect(syntheticIdentifier('42 Labs', 'r')).to.equal('42l-r');
    });

    it('uses exactly 3 when the name has exactly 3', () => {
      expect(syntheticIdentifier('Ümo', 'r')).to.equal('umo-r');
    });

    for (const name of ['', 'AB', 'a b', 'É.Z', '!!!', '猫猫猫', 'A_-_B']) {
      it(`falls back to lnk for ${JSON.stringify(name)} (fewer than 3 alphanumerics)`, () => {
        expect(syntheticIdentifier(name, 'Q1w2E3r4T5')).to.equal('lnk-q1w2e3r4t5');
      });
    }

    it('is itself a valid identifier', () => {
      const value = syntheticIdentifier('Acme', 'AbCdEfGhIj');
      expect(sanitizeIdentifier(value)).to.equal(value);
    });
  });

  describe('meetsListConditions', () => {
    const createdAt = T0;
    const link = (status: PaymentLinkStatus, expiresAt: Date | null = after(HOUR)) => ({ ...linkState(status, expiresAt), createdAt });

    it('holds a link to the effective status at `now`, not the stored one', () => {
      expect(meetsListConditions(link('ACTIVE'), { now: T0, status: 'ACTIVE' })).to.equal(true);
      expect(meetsListConditions(link('ACTIVE'), { now: after(HOUR), status: 'ACTIVE' })).to.equal(false);
      expect(meetsListConditions(link('ACTIVE'), { now: after(HOUR), status: 'EXPIRED' })).to.equal(true);
      expect(meetsListConditions(link('PAID'), { now: T0, status: 'ACTIVE' })).to.equal(false);
      expect(meetsListConditions(link('PAID'), { now: T0 }), 'no status: any').to.equal(true);
    });

    it('holds createdAt between both bounds, each inclusive to the millisecond', () => {
      const at = createdAt.getTime();
      expect(meetsListConditions(link('ACTIVE'), { now: T0, createdFrom: at, createdTo: at })).to.equal(true);
      expect(meetsListConditions(link('ACTIVE'), { now: T0, createdFrom: at + 1 })).to.equal(false);
      expect(meetsListConditions(link('ACTIVE'), { now: T0, createdTo: at - 1 })).to.equal(false);
      expect(meetsListConditions(link('ACTIVE'), { now: T0, status: 'PAID', createdFrom: at })).to.equal(false);
    });
  });

  describe('effectiveLinkStatus', () => {
    const expiresAt = after(HOUR);

    it('keeps an ACTIVE link ACTIVE before expiresAt, to the last millisecond', () => {
      expect(effectiveLinkStatus(linkState('ACTIVE', expiresAt), T0)).to.equal('ACTIVE');
      expect(effectiveLinkStatus(linkState('ACTIVE', expiresAt), after(-1, expiresAt))).to.equal('ACTIVE');
    });

    it('reads an ACTIVE link as EXPIRED at exactly expiresAt', () => {
      expect(effectiveLinkStatus(linkState('ACTIVE', expiresAt), new Date(expiresAt.getTime()))).to.equal('EXPIRED');
    });

    it('reads an ACTIVE link as EXPIRED after expiresAt', () => {
      expect(effectiveLinkStatus(linkState('ACTIVE', expiresAt), after(1, expiresAt))).to.equal('EXPIRED');
      expect(effectiveLinkStatus(linkState('ACTIVE', expiresAt), after(DAY * 365, expiresAt))).to.equal('EXPIRED');
    });

    it('never expires an ACTIVE link without expiresAt', () => {
      expect(effectiveLinkStatus(linkState('ACTIVE', null), after(DAY * 10_000))).to.equal('ACTIVE');
    });

    for (const status of ['PAID', 'CANCELLED', 'EXPIRED'] as const) {
      it(`leaves a ${status} link ${status}, before and after expiresAt`, () => {
        expect(effectiveLinkStatus(linkState(status, expiresAt), T0)).to.equal(status);
        expect(effectiveLinkStatus(linkState(status, expiresAt), expiresAt)).to.equal(status);
        expect(effectiveLinkStatus(linkState(status, expiresAt), after(DAY, expiresAt))).to.equal(status);
      });
    }
  });

  describe('assertLinkEditable and assertLinkPayable', () => {
    const guards = { assertLinkEditable, assertLinkPayable };
    for (const [name, guard] of Object.entries(guards)) {
      describe(name, () => {
        it('accepts an ACTIVE link before expiresAt', () => {
          expect(() => guard(linkState('ACTIVE'), T0)).to.not.throw();
          expect(() => guard(linkState('ACTIVE', null), T0)).to.not.throw();
        });

        it('refuses an ACTIVE link at and after expiresAt with BUSINESS_RULE_VIOLATION naming EXPIRED', async () => {
          const expiresAt = after(HOUR);
          expect(await expectRuleViolation(() => guard(linkState('ACTIVE', expiresAt), expiresAt))).to.contain('EXPIRED');
          expect(await expectRuleViolation(() => guard(linkState('ACTIVE', expiresAt), after(1, expiresAt)))).to.contain('EXPIRED');
        });

        for (const status of ['PAID', 'EXPIRED', 'CANCELLED'] as const) {
          it(`refuses a ${status} link with BUSINESS_RULE_VIOLATION naming the status`, async () => {
            expect(await expectRuleViolation(() => guard(linkState(status), T0))).to.contain(status);
          });
        }
      });
    }
  });

  describe('assertFutureExpiry', () => {
    it('accepts an instant one millisecond after now', () => {
      expect(() => assertFutureExpiry(after(1), T0)).to.not.throw();
    });

    it('refuses an instant equal to now: INVALID_REQUEST on expiresAt, "must be in the future"', async () => {
      const error = await expectInvalidField(() => assertFutureExpiry(new Date(T0.getTime()), T0), 'expiresAt');
      expect(error.details[0]!.issue).to.equal('must be in the future');
    });

    it('refuses a past instant', async () => {
      await expectInvalidField(() => assertFutureExpiry(after(-1), T0), 'expiresAt');
    });

    it('names the field it is given', async () => {
      await expectInvalidField(() => assertFutureExpiry(after(-DAY), T0, 'until'), 'until');
    });
  });

  describe('paymentLinkCodeFromId', () => {
    it('takes the code from plk_<code> or the bare code', () => {
      expect(paymentLinkCodeFromId('plk_AbC123')).to.equal('AbC123');
      expect(paymentLinkCodeFromId('AbC123')).to.equal('AbC123');
    });

    it('accepts codes of 1 to 64 alphanumerics', () => {
      expect(paymentLinkCodeFromId('plk_x')).to.equal('x');
      expect(paymentLinkCodeFromId(`plk_${'z'.repeat(64)}`)).to.equal('z'.repeat(64));
      expect(paymentLinkCodeFromId(`plk_${'z'.repeat(65)}`)).to.equal(null);
    });

    for (const id of ['', 'plk_', 'plk_ab-c', 'plk_ab c', 'PLK_abc', 'debt_plk_abc', 'plk_plk_abc', 'con_abc', 'ab.c', 'plk_ñandu']) {
      it(`is null for ${JSON.stringify(id)}`, () => {
        expect(paymentLinkCodeFromId(id)).to.equal(null);
      });
    }
  });

  describe('properties', () => {
    /** Mostly characters the rules treat specially, so many inputs survive sanitizing. */
    const interesting = fc.constantFrom('a', 'Z', '0', '9', '-', '_', ' ', '\t', 'é', 'Ñ', 'ü', '\u0301', '!', '#', '.', '📱', 'ß', 'Ω');
    const identifierInput = fc.oneof(
      fc.string({ unit: interesting, maxLength: 100 }),
      fc.string({ unit: 'binary', maxLength: 100 }),
      fc.string({ unit: 'grapheme', maxLength: 100 }),
    );

    /** The sanitized value, or null when it refused the input as it must (identifierValue, 400). */
    function sanitizedOrNull(input: string): string | null {
      try {
        return sanitizeIdentifier(input);
      } catch (error) {
        expect(error).to.be.instanceOf(InvalidRequestError);
        expect((error as InvalidRequestError).details.map((d) => d.field)).to.deep.equal(['identifierValue']);
        return null;
      }
    }

    it('a sanitized value always matches ^[a-z0-9-]{1,64}$, with no hyphen at either end or doubled', () => {
      fc.assert(
        fc.property(identifierInput, (input) => {
          const value = sanitizedOrNull(input);
          if (value === null) return;
          expect(value).to.match(/^[a-z0-9-]{1,64}$/);
          expect(value).to.not.match(/^-|-$|--/);
        }),
        { numRuns: 2_000 },
      );
    });

    it('sanitizing is idempotent', () => {
      fc.assert(
        fc.property(identifierInput, (input) => {
          const value = sanitizedOrNull(input);
          if (value !== null) expect(sanitizeIdentifier(value)).to.equal(value);
        }),
        { numRuns: 2_000 },
      );
    });

    it('refuses an input exactly when it has no letter or digit that folds to ASCII', () => {
      fc.assert(
        fc.property(identifierInput, (input) => {
          const folded = input.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
          expect(sanitizedOrNull(input) === null, JSON.stringify(input)).to.equal(!/[a-z0-9]/.test(folded));
        }),
        { numRuns: 2_000 },
      );
    });

    it('a synthetic identifier is always a valid identifier starting with 3 alphanumerics and a hyphen', () => {
      fc.assert(
        fc.property(fc.string({ maxLength: 40 }), fc.stringMatching(/^[A-Za-z0-9]{8,12}$/), (name, random) => {
          const value = syntheticIdentifier(name, random);
          expect(value).to.match(/^[a-z0-9]{3}-[a-z0-9]{8,12}$/);
          expect(sanitizeIdentifier(value)).to.equal(value);
        }),
      );
    });

    it('effective status differs from the stored one only for ACTIVE links at or past expiresAt', () => {
      fc.assert(
        fc.property(fc.constantFrom(...PAYMENT_LINK_STATUSES), fc.option(fc.integer({ min: -DAY, max: DAY })), fc.integer({ min: -DAY, max: DAY }), (status, expiresIn, nowIn) => {
          const expiresAt = expiresIn === null ? null : after(expiresIn);
          const now = after(nowIn);
          const expected = status === 'ACTIVE' && expiresAt !== null && now.getTime() >= expiresAt.getTime() ? 'EXPIRED' : status;
          expect(effectiveLinkStatus({ status, expiresAt }, now)).to.equal(expected);
        }),
      );
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Use cases

describe('payment links: use cases (memory)', () => {
  let w: World;
  let app: Application;
  let scope: TenantScope;

  beforeEach(async () => {
    w = world();
    app = w.app;
    ({ scope } = await w.newTenant({ organization: 'Acme Pagos' }));
  });

  /** 250.00 for "Invoice 1", expiring a day after T0. */
  const linkInput = (overrides: Partial<CreatePaymentLinkInput> = {}): CreatePaymentLinkInput => ({
    amountCents: 25_000,
    description: 'Invoice 1',
    expiresAt: after(DAY),
    ...overrides,
  });
  const create = (overrides: Partial<CreatePaymentLinkInput> = {}, s = scope) => app.commands.createPaymentLink.execute(linkInput(overrides), s);
  const idOf = (link: PaymentLinkView) => `plk_${link.code}`;
  const stored = (link: PaymentLinkView, s = scope) => w.repos.paymentLinks.findByCode(s.company.id, link.code);
  const debtOf = (link: PaymentLinkView, s = scope) => w.repos.debts.findByExternalRequestId(s.company.id, link.debtExternalRequestId);
  const pay = (link: PaymentLinkView, amountCents?: number, s = scope) => app.commands.payPaymentLink.execute(idOf(link), amountCents, 'test-helper', s);
  const cancel = (link: PaymentLinkView, s = scope) => app.commands.cancelPaymentLink.execute(idOf(link), s);
  const update = (link: PaymentLinkView, body: UpdatePaymentLinkInput, s = scope) => app.commands.updatePaymentLink.execute(idOf(link), () => body, s);
  const list = (input: ListPaymentLinksInput = {}, s = scope) => app.queries.listPaymentLinks.execute(input, PAGE, s);
  const listedCodes = async (input: ListPaymentLinksInput = {}, s = scope) => (await list(input, s)).items.map((l) => l.code);
  const payments = (link: PaymentLinkView, input = {}, s = scope) => app.queries.listLinkPayments.execute(idOf(link), input, PAGE, s);
  const addContact = (externalClientId: string, s = scope) =>
    app.commands.createContact.execute({ externalClientId, name: `Name ${externalClientId}`, email: 'contact@example.com' }, s);

  /** What the memory store holds for the company, counted through the repositories. */
  async function counts(s = scope) {
    const now = s.clock.now();
    return {
      links: (await w.repos.paymentLinks.list(s.company.id, { now }, PAGE)).total,
      debts: (await w.repos.debts.list(s.company.id, { today: now.toISOString().slice(0, 10) }, PAGE)).total,
      contacts: (await w.repos.contacts.list(s.organizationId, {}, PAGE)).total,
      products: (await w.repos.products.listActive(s.company.id, {}, PAGE)).total,
    };
  }
  const NOTHING = { links: 0, debts: 0, contacts: 0, products: 0 };

  describe('CreatePaymentLink', () => {
    it('creates an ACTIVE link with the defaults and a synthetic identifier from the organization name', async () => {
      const link = await create();
      expect(link.code).to.match(/^[A-Za-z0-9]{20}$/);
      expect(link.identifierValue).to.match(/^acm-[a-z0-9]{10}$/);
      expect(link).to.deep.equal({
        id: link.id,
        organizationId: scope.organizationId,
        companyId: scope.company.id,
        code: link.code,
        externalPaymentLinkId: null,
        debtExternalRequestId: `plk_${link.code}`,
        status: 'ACTIVE',
        amountCents: 25_000,
        currency: 'MXN',
        description: 'Invoice 1',
        singleUse: true,
        expiresAt: after(DAY),
        successUrl: null,
        metadata: null,
        identifierValue: link.identifierValue,
        urlIdentifier: link.identifierValue,
        shortCode: null,
        productId: null,
        productCreatedInline: false,
        contactId: null,
        paymentsCount: 0,
        createdAt: T0,
        updatedAt: T0,
        product: null,
      });
      expect(await stored(link)).to.deep.equal(link);
    });

    it('creates the associated PENDING debt: link amount, due on the UTC date of expiresAt, no debtor, no partial or overdue payment', async () => {
      const link = await create({ expiresAt: new Date('2031-05-11T23:30:00-03:00'), additionalData: { ref: 'A-1', n: 2 } });
      expect(await debtOf(link)).to.deep.equal({
        id: (await debtOf(link))!.id,
        organizationId: scope.organizationId,
        companyId: scope.company.id,
        externalRequestId: `plk_${link.code}`,
        batchId: null,
        contactId: null,
        contactCreatedInline: false,
        paymentLinkId: link.id,
        productId: null,
        status: 'PENDING',
        amountCents: 25_000,
        amountPaidCents: 0,
        currency: 'MXN',
        dueDate: '2031-05-12',
        allowOverduePayment: false,
        allowPartialPayments: false,
        description: 'Invoice 1',
        additionalData: { ref: 'A-1', n: 2 },
        paymentMethods: null,
        autopay: false,
        autopayReason: null,
        autopayPaymentMethodId: null,
        createdAt: T0,
        updatedAt: T0,
        contact: null,
        product: null,
        autopayInstrument: null,
      });
      expect(link).to.not.have.property('additionalData');
    });

    it('keeps the optional fields it is given', async () => {
      const link = await create({
        currency: 'USD',
        singleUse: false,
        successUrl: 'https://shop.example.com/thanks?o=1',
        metadata: { order: 'A-1', n: 3, vip: true, none: null },
        externalPaymentLinkId: 'key-1',
      });
      expect(link).to.deep.include({
        currency: 'USD',
        singleUse: false,
        successUrl: 'https://shop.example.com/thanks?o=1',
        metadata: { order: 'A-1', n: 3, vip: true, none: null },
        externalPaymentLinkId: 'key-1',
      });
      expect((await debtOf(link))!.currency).to.equal('USD');
    });

    it("defaults the currency to the company's default currency", async () => {
      const cop = (await w.newTenant({ settings: { defaultCurrency: 'COP' } })).scope;
      expect((await create({}, cop)).currency).to.equal('COP');
      expect((await create({ currency: 'PEN' }, cop)).currency).to.equal('PEN');
    });

    it('refuses expiresAt equal to now with INVALID_REQUEST on expiresAt and writes nothing', async () => {
      const error = await expectInvalidField(create({ expiresAt: new Date(T0.getTime()) }), 'expiresAt');
      expect(error.details[0]!.issue).to.equal('must be in the future');
      await expectInvalidField(create({ expiresAt: after(-DAY) }), 'expiresAt');
      expect(await counts()).to.deep.equal(NOTHING);
      expect((await create({ expiresAt: after(1) })).expiresAt).to.deep.equal(after(1));
    });

    it('uses the organization clock for "in the future"', async () => {
      w.clock.set(after(2 * DAY));
      await expectInvalidField(create({ expiresAt: after(DAY) }), 'expiresAt');
      expect((await create({ expiresAt: after(3 * DAY) })).createdAt).to.deep.equal(after(2 * DAY));
    });

    it('sanitizes an explicit identifierValue and returns it, also in the URL identifier', async () => {
      const link = await create({ identifierValue: '  Mi Pago_Único #7! ' });
      expect(link.identifierValue).to.equal('mi-pago-unico-7');
      expect(link.urlIdentifier).to.equal('mi-pago-unico-7');
    });

    it('refuses an identifierValue empty after sanitizing with INVALID_REQUEST on identifierValue and writes nothing', async () => {
      await expectInvalidField(create({ identifierValue: '¡¿!?' }), 'identifierValue');
      await expectInvalidField(create({ identifierValue: '', productName: 'New plan', debtor: { contactData: { externalClientId: 'ext-x', name: 'X', email: 'x@example.com' } } }), 'identifierValue');
      expect(await counts()).to.deep.equal(NOTHING);
    });

    it('falls back to lnk for an organization name with fewer than 3 alphanumerics', async () => {
      const short = (await w.newTenant({ organization: 'X.Y' })).scope;
      expect((await create({}, short)).identifierValue).to.match(/^lnk-[a-z0-9]{10}$/);
    });

    it('folds the organization name for the synthetic identifier', async () => {
      const nandu = (await w.newTenant({ organization: 'Ñandú Cobranzas' })).scope;
      expect((await create({}, nandu)).identifierValue).to.match(/^nan-[a-z0-9]{10}$/);
    });

    it('gives every link its own synthetic identifier', async () => {
      const first = await create();
      const second = await create();
      expect(first.identifierValue).to.not.equal(second.identifierValue);
    });

    it('with a known debtor returns identifierValue null, even when one was sent, and builds the URL from the debtor', async () => {
      const contact = await addContact('Cliente_ÁB 01');
      const link = await create({ debtor: { externalClientId: 'Cliente_ÁB 01' }, identifierValue: 'mine' });
      expect(link).to.deep.include({ identifierValue: null, urlIdentifier: 'cliente-ab-01', contactId: contact.id });
      expect(await debtOf(link)).to.deep.include({ contactId: contact.id, contactCreatedInline: false, contact: { code: contact.code, externalClientId: 'Cliente_ÁB 01' } });
    });

    it('creates the debtor from contactData (createdInline on the debt)', async () => {
      const link = await create({ debtor: { contactData: { externalClientId: 'ext-new', name: 'Nuevo', email: 'new@example.com' } } });
      const contact = (await w.repos.contacts.findByExternalClientId(scope.organizationId, 'ext-new'))!;
      expect(contact).to.deep.include({ name: 'Nuevo', email: 'new@example.com', createdAt: T0 });
      expect(link).to.deep.include({ identifierValue: null, urlIdentifier: 'ext-new', contactId: contact.id });
      expect(await debtOf(link)).to.deep.include({ contactId: contact.id, contactCreatedInline: true });
    });

    it('refuses an unknown externalClientId with BUSINESS_RULE_VIOLATION and creates no link, debt or product', async () => {
      expect(await expectRuleViolation(create({ debtor: { externalClientId: 'ext-nobody' }, productName: 'Inline plan', externalPaymentLinkId: 'k1' }))).to.contain('ext-nobody');
      expect(await counts()).to.deep.equal(NOTHING);
      expect(await w.repos.paymentLinks.findByExternalPaymentLinkId(scope.organizationId, 'k1')).to.equal(null);
    });

    it('creates a product named productName inline and embeds it; an existing one is reused', async () => {
      const inline = await create({ productName: 'Gym Plan' });
      const product = (await w.repos.products.findByName(scope.company.id, 'Gym Plan'))!;
      expect(inline).to.deep.include({ productId: product.id, productCreatedInline: true, product: { id: product.id, name: 'Gym Plan', active: true } });
      const reused = await create({ productName: 'Gym Plan' });
      expect(reused).to.deep.include({ productId: product.id, productCreatedInline: false });
      expect((await counts()).products).to.equal(1);
    });

    it('gives a company with private links a 16-character short code', async () => {
      const privateScope = (await w.newTenant({ settings: { privateLinks: true } })).scope;
      const link = await create({}, privateScope);
      expect(link.shortCode).to.match(/^[A-Za-z0-9]{16}$/);
      expect((await create({}, privateScope)).shortCode).to.not.equal(link.shortCode);
    });

    it('creates a new link every time without a key, each with externalPaymentLinkId null', async () => {
      const first = await create();
      const second = await create();
      expect([first.externalPaymentLinkId, second.externalPaymentLinkId]).to.deep.equal([null, null]);
      expect(first.code).to.not.equal(second.code);
      expect(await counts()).to.deep.include({ links: 2, debts: 2 });
    });

    it('refuses a repeated externalPaymentLinkId with RESOURCE_CONFLICT and writes nothing: no link, debt, contact or product', async () => {
      const first = await create({ externalPaymentLinkId: 'order-1' });
      const before = await counts();
      expect(before).to.deep.equal({ links: 1, debts: 1, contacts: 0, products: 0 });
      await expectConflict(
        create({
          externalPaymentLinkId: 'order-1',
          amountCents: 999,
          productName: 'Never created',
          debtor: { contactData: { externalClientId: 'ext-never', name: 'Never', email: 'never@example.com' } },
        }),
      );
      expect(await counts()).to.deep.equal(before);
      expect(await w.repos.contacts.findByExternalClientId(scope.organizationId, 'ext-never')).to.equal(null);
      expect(await w.repos.products.findByName(scope.company.id, 'Never created')).to.equal(null);
      expect(await w.repos.paymentLinks.findByExternalPaymentLinkId(scope.organizationId, 'order-1')).to.deep.equal(first);
    });

    it('treats the key per organization: taken in a sibling company is a conflict, in another organization it is free', async () => {
      const { scopes } = await w.newTenant({ companies: ['A', 'B'] });
      await create({ externalPaymentLinkId: 'shared' }, scopes[0]);
      await expectConflict(create({ externalPaymentLinkId: 'shared' }, scopes[1]));
      expect((await counts(scopes[1])).debts).to.equal(0);
      expect((await create({ externalPaymentLinkId: 'shared' })).externalPaymentLinkId).to.equal('shared');
    });

    it('of two concurrent creations with one key, one succeeds and the other gets RESOURCE_CONFLICT', async () => {
      const outcomes = await Promise.allSettled([create({ externalPaymentLinkId: 'race', amountCents: 100 }), create({ externalPaymentLinkId: 'race', amountCents: 200 })]);
      const winners = outcomes.filter((o): o is PromiseFulfilledResult<PaymentLinkView> => o.status === 'fulfilled');
      const losers = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(winners).to.have.length(1);
      expect(losers).to.have.length(1);
      expect(losers[0]!.reason).to.be.instanceOf(ConflictError);
      expect(await counts()).to.deep.include({ links: 1, debts: 1 });
      expect((await debtOf(winners[0]!.value))!.amountCents).to.equal(winners[0]!.value.amountCents);
    });
  });

  describe('UpdatePaymentLink', () => {
    /** A body parser that records whether it was called. */
    function parser(body: UpdatePaymentLinkInput | Error) {
      const calls = { count: 0 };
      const parse = () => {
        calls.count += 1;
        if (body instanceof Error) throw body;
        return body;
      };
      return { calls, parse };
    }

    it('changes description and metadata on the link only, stamping updatedAt', async () => {
      const link = await create({ metadata: { a: 1, b: 2 } });
      const debtBefore = await debtOf(link);
      w.clock.advance(HOUR);
      const updated = await update(link, { description: 'Invoice 1 (fixed)', metadata: { c: 'three' } });
      expect(updated).to.deep.equal({ ...link, description: 'Invoice 1 (fixed)', metadata: { c: 'three' }, updatedAt: after(HOUR) });
      expect(await stored(link)).to.deep.equal(updated);
      expect(await debtOf(link)).to.deep.equal(debtBefore);
    });

    it('moves expiresAt and the due date of the associated debt (UTC date)', async () => {
      const link = await create();
      const expiresAt = new Date('2031-06-01T01:00:00+02:00');
      const updated = await update(link, { expiresAt });
      expect(updated.expiresAt).to.deep.equal(expiresAt);
      expect(await debtOf(link)).to.deep.include({ dueDate: '2031-05-31', updatedAt: T0 });
    });

    it('refuses an expiresAt not in the future with INVALID_REQUEST on expiresAt, changing nothing', async () => {
      const link = await create();
      const debtBefore = await debtOf(link);
      await expectInvalidField(update(link, { expiresAt: new Date(T0.getTime()), description: 'changed' }), 'expiresAt');
      await expectInvalidField(update(link, { expiresAt: after(-1) }), 'expiresAt');
      expect(await stored(link)).to.deep.equal(link);
      expect(await debtOf(link)).to.deep.equal(debtBefore);
    });

    it('leaves the due date of a cancelled associated debt alone', async () => {
      const link = await create();
      await app.commands.cancelDebt.execute(`debt_${link.debtExternalRequestId}`, scope);
      const expiresAt = after(10 * DAY);
      expect((await update(link, { expiresAt })).expiresAt).to.deep.equal(expiresAt);
      expect(await debtOf(link)).to.deep.include({ status: 'CANCELLED', dueDate: '2031-05-11' });
    });

    it('calls the body parser once for an ACTIVE link and reports its error as it is', async () => {
      const link = await create();
      const invalid = InvalidRequestError.field('amount', 'is not updatable');
      const { calls, parse } = parser(invalid);
      expect(await failure(app.commands.updatePaymentLink.execute(idOf(link), parse, scope))).to.equal(invalid);
      expect(calls.count).to.equal(1);
    });

    for (const [state, makeIt] of [
      ['PAID', async (link: PaymentLinkView) => void (await pay(link))],
      ['CANCELLED', async (link: PaymentLinkView) => void (await cancel(link))],
      ['EXPIRED by time', async () => w.clock.set(after(DAY))],
    ] as const) {
      it(`refuses a ${state} link with BUSINESS_RULE_VIOLATION without calling the body parser`, async () => {
        const link = await create();
        await makeIt(link);
        const before = await stored(link);
        const { calls, parse } = parser(InvalidRequestError.field('amount', 'is not updatable'));
        await expectRuleViolation(app.commands.updatePaymentLink.execute(idOf(link), parse, scope));
        expect(calls.count).to.equal(0);
        expect(await stored(link)).to.deep.equal(before);
      });
    }

    it("is RESOURCE_NOT_FOUND for an unknown id, a malformed id or another company's link, without calling the parser", async () => {
      const { scopes } = await w.newTenant({ companies: ['A', 'B'] });
      const link = await create({}, scopes[0]);
      const { calls, parse } = parser({ description: 'x' });
      for (const [id, s] of [['plk_nope', scopes[0]!], ['plk_a-b', scopes[0]!], [idOf(link), scopes[1]!], [idOf(link), scope]] as const) {
        await expectNotFound(app.commands.updatePaymentLink.execute(id, parse, s));
      }
      expect(calls.count).to.equal(0);
    });

    it('accepts the bare code as the id', async () => {
      const link = await create();
      expect((await app.commands.updatePaymentLink.execute(link.code, () => ({ description: 'bare' }), scope)).description).to.equal('bare');
    });
  });

  describe('CancelPaymentLink', () => {
    it('cancels an ACTIVE link and its associated debt', async () => {
      const link = await create();
      w.clock.advance(HOUR);
      const cancelled = await cancel(link);
      expect(cancelled).to.deep.equal({ ...link, status: 'CANCELLED', updatedAt: after(HOUR) });
      expect(await debtOf(link)).to.deep.include({ status: 'CANCELLED', updatedAt: after(HOUR) });
    });

    it('answers a CANCELLED link again unchanged', async () => {
      const link = await create();
      const cancelled = await cancel(link);
      w.clock.advance(HOUR);
      expect(await cancel(link)).to.deep.equal(cancelled);
      expect(await stored(link)).to.deep.equal(cancelled);
    });

    it('refuses a PAID link with BUSINESS_RULE_VIOLATION, leaving link and debt PAID', async () => {
      const link = await create();
      await pay(link);
      expect(await expectRuleViolation(cancel(link))).to.contain('PAID');
      expect((await stored(link))!.status).to.equal('PAID');
      expect((await debtOf(link))!.status).to.equal('PAID');
    });

    it('refuses a link EXPIRED by time with BUSINESS_RULE_VIOLATION, storing nothing', async () => {
      const link = await create();
      w.clock.set(after(DAY));
      expect(await expectRuleViolation(cancel(link))).to.contain('EXPIRED');
      expect(await stored(link)).to.deep.equal(link);
      expect((await debtOf(link))!.status).to.equal('PENDING');
    });

    it('cancels a reusable link that took payments: its debt is cancelled, the payment records stay PAID', async () => {
      const link = await create({ singleUse: false });
      await pay(link, 1_000);
      await cancel(link);
      expect((await debtOf(link))!.status).to.equal('CANCELLED');
      expect((await w.repos.debts.findByExternalRequestId(scope.company.id, `${link.debtExternalRequestId}-payment-1`))!.status).to.equal('PAID');
    });

    it("is RESOURCE_NOT_FOUND for another company's link", async () => {
      const other = (await w.newTenant()).scope;
      const link = await create({}, other);
      await expectNotFound(cancel(link));
      expect((await stored(link, other))!.status).to.equal('ACTIVE');
    });
  });

  describe('PayPaymentLink', () => {
    it('pays a single-use link in full by default: link PAID, debt PAID', async () => {
      const link = await create();
      w.clock.advance(HOUR);
      const paid = await pay(link);
      expect(paid).to.deep.equal({ ...link, status: 'PAID', paymentsCount: 1, updatedAt: after(HOUR) });
      expect(await debtOf(link)).to.deep.include({ status: 'PAID', amountCents: 25_000, amountPaidCents: 25_000, updatedAt: after(HOUR) });
    });

    it('accepts the exact link amount given explicitly', async () => {
      const link = await create();
      expect((await pay(link, 25_000)).status).to.equal('PAID');
    });

    for (const amount of [24_999, 25_001, 1]) {
      it(`refuses ${amount} cents on a single-use link of 25000 with BUSINESS_RULE_VIOLATION, changing nothing`, async () => {
        const link = await create();
        const debtBefore = await debtOf(link);
        await expectRuleViolation(pay(link, amount));
        expect(await stored(link)).to.deep.equal(link);
        expect(await debtOf(link)).to.deep.equal(debtBefore);
      });
    }

    it('refuses a second payment of a single-use link (PAID)', async () => {
      const link = await create();
      await pay(link);
      expect(await expectRuleViolation(pay(link))).to.contain('PAID');
    });

    it('keeps a reusable link ACTIVE and records each payment as a new PAID debt of its amount', async () => {
      const link = await create({ singleUse: false });
      w.clock.advance(HOUR);
      const once = await pay(link);
      expect(once).to.deep.equal({ ...link, paymentsCount: 1, updatedAt: after(HOUR) });
      w.clock.advance(HOUR);
      const twice = await pay(link, 1_234);
      expect(twice).to.deep.include({ status: 'ACTIVE', paymentsCount: 2, updatedAt: after(2 * HOUR) });
      const record = (n: number) => w.repos.debts.findByExternalRequestId(scope.company.id, `${link.debtExternalRequestId}-payment-${n}`);
      expect(await record(1)).to.deep.include({ status: 'PAID', amountCents: 25_000, amountPaidCents: 25_000, paymentLinkId: link.id, createdAt: after(HOUR) });
      expect(await record(2)).to.deep.include({ status: 'PAID', amountCents: 1_234, amountPaidCents: 1_234, paymentLinkId: link.id, dueDate: '2031-05-10' });
      expect(await debtOf(link)).to.deep.include({ status: 'PENDING', amountPaidCents: 0 });
    });

    for (const [kind, singleUse] of [['single-use', true], ['reusable', false]] as const) {
      it(`refuses a payment below one cent on a ${kind} link`, async () => {
        const link = await create({ singleUse });
        await expectRuleViolation(pay(link, 0));
        await expectRuleViolation(pay(link, -100));
        expect(await stored(link)).to.deep.equal(link);
        expect((await payments(link)).total).to.equal(1);
      });

      it(`refuses a payment on a ${kind} link EXPIRED by time (at exactly expiresAt)`, async () => {
        const link = await create({ singleUse });
        w.clock.set(after(DAY));
        expect(await expectRuleViolation(pay(link))).to.contain('EXPIRED');
        expect(await stored(link)).to.deep.equal(link);
      });

      it(`refuses a payment on a CANCELLED ${kind} link`, async () => {
        const link = await create({ singleUse });
        await cancel(link);
        expect(await expectRuleViolation(pay(link))).to.contain('CANCELLED');
      });
    }

    it('accepts a payment one millisecond before expiresAt', async () => {
      const link = await create();
      w.clock.set(after(DAY - 1));
      expect((await pay(link)).status).to.equal('PAID');
    });
  });

  describe('ListPaymentLinks', () => {
    it('sorts by externalPaymentLinkId descending, links without one last and newest first', async () => {
      const made: Record<string, PaymentLinkView> = {};
      for (const [name, key] of [['none-1', undefined], ['b', 'b'], ['a10', 'a10'], ['none-2', undefined], ['a9', 'a9'], ['C', 'C']] as const) {
        made[name] = await create({ externalPaymentLinkId: key });
      }
      expect(await listedCodes()).to.deep.equal(['b', 'a9', 'a10', 'C', 'none-2', 'none-1'].map((n) => made[n]!.code));
      const page = await list();
      expect(page).to.deep.include({ total: 6, capped: false });
    });

    it('pages the sorted list', async () => {
      for (const key of ['k1', 'k2', 'k3']) await create({ externalPaymentLinkId: key });
      const second = await app.queries.listPaymentLinks.execute({}, { page: 2, limit: 2 }, scope);
      expect(second.items.map((l) => l.externalPaymentLinkId)).to.deep.equal(['k1']);
      expect(second.total).to.equal(3);
    });

    it('filters by the effective status at the organization clock', async () => {
      const soon = await create({ expiresAt: after(HOUR) });
      const later = await create({ expiresAt: after(DAY) });
      const paid = await create({ expiresAt: after(HOUR) });
      await pay(paid);
      const cancelled = await create();
      await cancel(cancelled);
      expect(await listedCodes({ status: 'ACTIVE' })).to.deep.equal([later.code, soon.code]);
      expect(await listedCodes({ status: 'EXPIRED' })).to.deep.equal([]);
      w.clock.set(after(HOUR));
      expect(await listedCodes({ status: 'ACTIVE' })).to.deep.equal([later.code]);
      expect(await listedCodes({ status: 'EXPIRED' })).to.deep.equal([soon.code]);
      expect(await listedCodes({ status: 'PAID' })).to.deep.equal([paid.code]);
      expect(await listedCodes({ status: 'CANCELLED' })).to.deep.equal([cancelled.code]);
      expect((await list({ status: 'EXPIRED' })).total).to.equal(1);
    });

    it('filters by externalPaymentLinkId exactly', async () => {
      const one = await create({ externalPaymentLinkId: 'Ord-1' });
      await create({ externalPaymentLinkId: 'Ord-10' });
      expect(await listedCodes({ externalPaymentLinkId: 'Ord-1' })).to.deep.equal([one.code]);
      expect(await listedCodes({ externalPaymentLinkId: 'ord-1' })).to.deep.equal([]);
    });

    it('filters by debtId debt_plk_<code>; any other debtId finds nothing', async () => {
      const link = await create();
      await create();
      expect(await listedCodes({ debtId: `debt_plk_${link.code}` })).to.deep.equal([link.code]);
      for (const debtId of [`plk_${link.code}`, `debt_${link.code}`, 'debt_plk_nope', `debt_plk_${link.code}x`]) {
        expect(await list({ debtId }), debtId).to.deep.equal({ items: [], total: 0, capped: false });
      }
    });

    describe('createdAt bounds', () => {
      const A = new Date('2031-05-10T15:00:00.000Z');
      const B = new Date('2031-05-10T15:00:00.001Z');
      const C = new Date('2031-05-10T15:00:01.000Z');
      const D = new Date('2031-05-11T00:00:00.000Z');
      let codes: Record<string, string>;

      beforeEach(async () => {
        codes = {};
        for (const [name, instant] of [['A', A], ['B', B], ['C', C], ['D', D]] as const) {
          w.clock.set(instant);
          codes[name] = (await create({ expiresAt: after(30 * DAY) })).code;
        }
      });

      const expectListed = async (input: ListPaymentLinksInput, names: string[]) =>
        expect(await listedCodes(input), JSON.stringify(input)).to.deep.equal(names.map((n) => codes[n]));

      it('compares a date-time bound exactly, to the millisecond, both inclusive', async () => {
        await expectListed({ createdAtFrom: B.toISOString() }, ['D', 'C', 'B']);
        await expectListed({ createdAtTo: B.toISOString() }, ['B', 'A']);
        await expectListed({ createdAtFrom: B.toISOString(), createdAtTo: B.toISOString() }, ['B']);
        await expectListed({ createdAtFrom: '2031-05-10T15:00:00.001Z', createdAtTo: '2031-05-10T15:00:00.999Z' }, ['B']);
        await expectListed({ createdAtFrom: '2031-05-10T15:00:00.002Z', createdAtTo: '2031-05-10T15:00:00.999Z' }, []);
      });

      it('compares a date-time with an offset at its UTC instant', async () => {
        await expectListed({ createdAtFrom: '2031-05-10T12:00:00.001-03:00', createdAtTo: '2031-05-10T17:00:01+02:00' }, ['C', 'B']);
      });

      it('takes a plain date as the whole UTC day', async () => {
        await expectListed({ createdAtFrom: '2031-05-10', createdAtTo: '2031-05-10' }, ['C', 'B', 'A']);
        await expectListed({ createdAtFrom: '2031-05-11' }, ['D']);
        await expectListed({ createdAtTo: '2031-05-09' }, []);
      });

      it('refuses createdAtFrom after createdAtTo with INVALID_REQUEST on createdAtFrom', async () => {
        await expectInvalidField(list({ createdAtFrom: C.toISOString(), createdAtTo: B.toISOString() }), 'createdAtFrom');
        await expectInvalidField(list({ createdAtFrom: '2031-05-11', createdAtTo: '2031-05-10T23:59:59.999Z' }), 'createdAtFrom');
      });

      for (const [field, value] of [
        ['createdAtFrom', 'yesterday'],
        ['createdAtFrom', '2031-02-30T00:00:00Z'],
        ['createdAtTo', '2031-05-10T15:00:00'],
        ['createdAtTo', '2031-05-10 15:00:00Z'],
        ['createdAtTo', '2031-13-01'],
      ] as const) {
        it(`refuses ${field}=${value} with INVALID_REQUEST on ${field}`, async () => {
          await expectInvalidField(list({ [field]: value }), field);
        });
      }
    });

    it("never lists another company's links", async () => {
      const { scopes } = await w.newTenant({ companies: ['A', 'B'] });
      await create({ externalPaymentLinkId: 'mine' }, scopes[0]);
      expect(await list({}, scopes[1])).to.deep.equal({ items: [], total: 0, capped: false });
      expect(await list({ externalPaymentLinkId: 'mine' }, scopes[1])).to.deep.equal({ items: [], total: 0, capped: false });
    });
  });

  describe('ListLinkPayments', () => {
    const summary = (debts: Pick<DebtView, 'externalRequestId' | 'status' | 'amountPaidCents'>[]) => debts.map((d) => ({ key: d.externalRequestId, status: d.status, amountPaidCents: d.amountPaidCents }));

    it('shows the PENDING debt of a new link with nothing paid', async () => {
      const link = await create();
      const page = await payments(link);
      expect(summary(page.items)).to.deep.equal([{ key: link.debtExternalRequestId, status: 'PENDING', amountPaidCents: 0 }]);
      expect(page.total).to.equal(1);
      expect(page.items[0]).to.deep.equal(listedOf((await debtOf(link))!));
    });

    it("lists a reusable link's payments newest first, then its own debt, and only this link's", async () => {
      const link = await create({ singleUse: false });
      const other = await create({ singleUse: false });
      await pay(other);
      await pay(link, 100);
      await pay(link, 200);
      expect(summary((await payments(link)).items)).to.deep.equal([
        { key: `${link.debtExternalRequestId}-payment-2`, status: 'PAID', amountPaidCents: 200 },
        { key: `${link.debtExternalRequestId}-payment-1`, status: 'PAID', amountPaidCents: 100 },
        { key: link.debtExternalRequestId, status: 'PENDING', amountPaidCents: 0 },
      ]);
    });

    it('applies the GET /debts filters', async () => {
      const link = await create({ singleUse: false });
      await pay(link, 100);
      await pay(link, 200);
      expect(summary((await payments(link, { status: 'PAID' })).items).map((s) => s.key)).to.deep.equal([2, 1].map((n) => `${link.debtExternalRequestId}-payment-${n}`));
      expect((await payments(link, { minAmountCents: 150, maxAmountCents: 250 })).items.map((d) => d.amountCents)).to.deep.equal([200]);
      expect((await payments(link, { status: 'PENDING' })).items.map((d) => d.externalRequestId)).to.deep.equal([link.debtExternalRequestId]);
    });

    it('leaves out a cancelled debt', async () => {
      const link = await create({ singleUse: false });
      await pay(link, 100);
      await cancel(link);
      expect(summary((await payments(link)).items).map((s) => s.key)).to.deep.equal([`${link.debtExternalRequestId}-payment-1`]);
    });

    it('shows the single-use debt PAID after the payment', async () => {
      const link = await create();
      await pay(link);
      expect(summary((await payments(link)).items)).to.deep.equal([{ key: link.debtExternalRequestId, status: 'PAID', amountPaidCents: 25_000 }]);
    });

    it("is RESOURCE_NOT_FOUND for an unknown id or another company's link", async () => {
      const other = (await w.newTenant()).scope;
      const link = await create({}, other);
      await expectNotFound(payments(link));
      await expectNotFound(app.queries.listLinkPayments.execute('plk_unknown', {}, PAGE, scope));
    });
  });

  describe('MarkExpiredPaymentLinks', () => {
    it("persists EXPIRED on each organization's own clock, only for ACTIVE links at or past expiresAt", async () => {
      const frozenLate = (await w.newTenant()).scope;
      const frozenEarly = (await w.newTenant()).scope;
      // Links made at T0 in both organizations: two expiring in an hour, one in two days.
      const late = { hour: await create({ expiresAt: after(HOUR) }, frozenLate), exact: await create({ expiresAt: after(2 * HOUR) }, frozenLate), days: await create({ expiresAt: after(2 * DAY) }, frozenLate) };
      const early = { hour: await create({ expiresAt: after(HOUR) }, frozenEarly), days: await create({ expiresAt: after(2 * DAY) }, frozenEarly) };
      const paid = await create({ expiresAt: after(HOUR) }, frozenLate);
      await pay(paid, undefined, frozenLate);
      const cancelled = await create({ expiresAt: after(HOUR) }, frozenLate);
      await cancel(cancelled, frozenLate);
      // The first scope (not frozen) follows the world clock, which is now far past every expiry.
      const unfrozen = await create({ expiresAt: after(HOUR) });
      await app.commands.setOrganizationClock.execute(after(2 * HOUR), frozenLate);
      await app.commands.setOrganizationClock.execute(after(30 * 60_000), frozenEarly);
      w.clock.set(after(10 * DAY));

      expect(await app.jobs.markExpiredPaymentLinks.execute()).to.deep.equal({ expired: 3 });

      const state = async (link: PaymentLinkView, s: TenantScope) => {
        const found = (await stored(link, s))!;
        return { status: found.status, updatedAt: found.updatedAt };
      };
      expect(await state(late.hour, frozenLate)).to.deep.equal({ status: 'EXPIRED', updatedAt: after(2 * HOUR) });
      expect(await state(late.exact, frozenLate)).to.deep.equal({ status: 'EXPIRED', updatedAt: after(2 * HOUR) });
      expect(await state(late.days, frozenLate)).to.deep.equal({ status: 'ACTIVE', updatedAt: T0 });
      expect(await state(early.hour, frozenEarly)).to.deep.equal({ status: 'ACTIVE', updatedAt: T0 });
      expect(await state(early.days, frozenEarly)).to.deep.equal({ status: 'ACTIVE', updatedAt: T0 });
      expect((await state(paid, frozenLate)).status).to.equal('PAID');
      expect((await state(cancelled, frozenLate)).status).to.equal('CANCELLED');
      expect(await state(unfrozen, scope)).to.deep.equal({ status: 'EXPIRED', updatedAt: after(10 * DAY) });

      expect(await app.jobs.markExpiredPaymentLinks.execute()).to.deep.equal({ expired: 0 });
    });

    it('expires the frozen organization’s links once its clock moves past expiresAt', async () => {
      const frozen = (await w.newTenant()).scope;
      const link = await create({ expiresAt: after(HOUR) }, frozen);
      await app.commands.setOrganizationClock.execute(after(HOUR - 1), frozen);
      w.clock.set(after(DAY));
      expect(await app.jobs.markExpiredPaymentLinks.execute()).to.deep.equal({ expired: 0 });
      await app.commands.setOrganizationClock.execute(after(HOUR), frozen);
      expect(await app.jobs.markExpiredPaymentLinks.execute()).to.deep.equal({ expired: 1 });
      expect((await stored(link, frozen))!.status).to.equal('EXPIRED');
    });
  });
});
