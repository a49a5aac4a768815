import { expect } from 'chai';
import { HostedPaymentPortal } from '../../../adapters/gateways/hosted-payment-portal';
import { SANDBOX_CARDS, SandboxPaymentProcessor } from '../../../adapters/gateways/sandbox-payment-processor';
import { PageSigner } from '../../../adapters/security/page-signer';

describe('hosted pages: signatures', () => {
  const signer = new PageSigner('a-secret-of-at-least-sixteen-chars');

  it('signs per purpose and per part, 128-bit tags, and verifies only what it signed', () => {
    const tag = signer.sign('debt', 'ACME', 'debt_1');
    expect(tag).to.match(/^[A-Za-z0-9_-]{22}$/);
    expect(signer.verify(tag, 'debt', 'ACME', 'debt_1')).to.equal(true);
    expect(signer.verify(tag, 'subscription', 'ACME', 'debt_1')).to.equal(false);
    expect(signer.verify(tag, 'debt', 'ACM', 'Edebt_1')).to.equal(false);
    expect(signer.verify(tag.slice(1), 'debt', 'ACME', 'debt_1')).to.equal(false);
    expect(new PageSigner('another-secret-of-sixteen-chars').verify(tag, 'debt', 'ACME', 'debt_1')).to.equal(false);
    expect(PageSigner.derivedFrom('jwt').sign('x')).to.equal(PageSigner.derivedFrom('jwt').sign('x'));
    expect(() => new PageSigner('short')).to.throw();
  });

  it('seals and opens enrollment grants; any change to the token is refused', () => {
    const portal = new HostedPaymentPortal('https://pay.example.com', signer);
    const grant = { companyCode: 'ACME', externalClientId: 'ana', currency: 'ARS' as const, expiresAt: new Date('2031-05-17T15:00:00.000Z') };
    const url = portal.enrollmentUrl(grant);
    const token = url.replace('https://pay.example.com/enroll/', '');
    expect(portal.openEnrollment(token)).to.deep.equal(grant);
    const [body, tag] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, cl: 'bob' })).toString('base64url');
    expect(portal.openEnrollment(`${forged}.${tag}`)).to.equal(null);
    expect(portal.openEnrollment(`${body}.${tag.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`)).to.equal(null);
    expect(portal.openEnrollment(signer.seal('csrf', claims))).to.equal(null);
    expect(portal.openEnrollment(signer.seal('enroll', { ...claims, cur: 'EUR' }))).to.equal(null);
    expect(portal.openEnrollment('garbage')).to.equal(null);
  });

  it('signs debt and subscription URLs; link URLs stay the specification\'s', () => {
    const portal = new HostedPaymentPortal('https://pay.example.com', signer);
    const url = portal.debtUrl({ companyCode: 'ACME', debtId: 'debt_a:b' })!;
    const [, code, id, tag] = /\/pay\/([^/]+)\/debts\/([^/]+)\/([^/]+)$/.exec(url)!;
    expect(portal.verifyDebt(code!, decodeURIComponent(id!), tag!)).to.equal(true);
    expect(portal.verifySubscription(code!, decodeURIComponent(id!), tag!)).to.equal(false);
    expect(portal.linkUrl({ companyCode: 'ACME', portalUrl: null, shortCode: 'AbC123', identifier: 'x' })).to.equal('https://pay.example.com/l/AbC123');
    expect(portal.linkUrl({ companyCode: 'ACME', portalUrl: 'https://portal.acme.mx/', shortCode: null, identifier: 'ana' })).to.equal('https://portal.acme.mx/ana');
  });

  it('builds each signed URL under its own path, the company code and the id encoded, the same again from the cache', () => {
    const portal = new HostedPaymentPortal('https://pay.example.com', signer);
    const code = 'OTRA S.A.';
    const expected = {
      debt: `https://pay.example.com/pay/OTRA%20S.A./debts/debt_a%2Fb/${signer.sign('debt', code, 'debt_a/b')}`,
      subscription: `https://pay.example.com/pay/OTRA%20S.A./subscriptions/sub_1/${signer.sign('subscription', code, 'sub_1')}`,
      instruction: `https://pay.example.com/pay/OTRA%20S.A./instructions/pin_1/${signer.sign('instruction', code, 'pin_1')}`,
      voucher: `https://pay.example.com/vouchers/OTRA%20S.A./pin_1/${signer.sign('voucher', code, 'pin_1')}`,
    };
    for (let round = 0; round < 2; round++) {
      expect(portal.debtUrl({ companyCode: code, debtId: 'debt_a/b' })).to.equal(expected.debt);
      expect(portal.subscriptionUrl({ companyCode: code, subscriptionId: 'sub_1' })).to.equal(expected.subscription);
      expect(portal.instructionUrl({ companyCode: code, paymentInstructionId: 'pin_1' })).to.equal(expected.instruction);
      expect(portal.voucherUrls({ companyCode: code, paymentInstructionId: 'pin_1' })).to.deep.equal({
        barcodeUrl: `${expected.voucher}/barcode.svg`,
        voucherUrl: `${expected.voucher}/voucher.pdf`,
      });
    }
  });

  it('keeps apart the signed URLs of two companies for the same id, and of two purposes for the same id, in any order', () => {
    const portal = new HostedPaymentPortal('https://pay.example.com', signer);
    const signed = (purpose: string, company: string, id: string) => signer.sign(purpose, company, id);
    for (let round = 0; round < 3; round++) {
      expect(portal.debtUrl({ companyCode: 'ACME', debtId: 'debt_inv-1' })).to.equal(`https://pay.example.com/pay/ACME/debts/debt_inv-1/${signed('debt', 'ACME', 'debt_inv-1')}`);
      expect(portal.debtUrl({ companyCode: 'OTRA', debtId: 'debt_inv-1' })).to.equal(`https://pay.example.com/pay/OTRA/debts/debt_inv-1/${signed('debt', 'OTRA', 'debt_inv-1')}`);
      expect(portal.instructionUrl({ companyCode: 'ACME', paymentInstructionId: 'pin_1' })).to.equal(
        `https://pay.example.com/pay/ACME/instructions/pin_1/${signed('instruction', 'ACME', 'pin_1')}`,
      );
      expect(portal.voucherUrls({ companyCode: 'ACME', paymentInstructionId: 'pin_1' }).voucherUrl).to.equal(
        `https://pay.example.com/vouchers/ACME/pin_1/${signed('voucher', 'ACME', 'pin_1')}/voucher.pdf`,
      );
    }
  });

  it('public link URLs keep each company\'s portal apart, one after the other in any order', () => {
    const portal = new HostedPaymentPortal('https://pay.example.com', signer);
    const acme = { companyCode: 'ACME', portalUrl: 'https://portal.acme.mx//', shortCode: null };
    const own = { companyCode: 'ACME', portalUrl: null, shortCode: null };
    const other = { companyCode: 'OTRA S.A.', portalUrl: null, shortCode: null };
    for (let round = 0; round < 2; round++) {
      expect(portal.linkUrl({ ...acme, identifier: 'ana' })).to.equal('https://portal.acme.mx/ana');
      expect(portal.linkUrl({ ...own, identifier: 'ana' })).to.equal('https://pay.example.com/pay/ACME/ana');
      expect(portal.linkUrl({ ...other, identifier: 'a b' })).to.equal('https://pay.example.com/pay/OTRA%20S.A./a%20b');
      expect(portal.linkUrl({ ...other, identifier: 'c' })).to.equal('https://pay.example.com/pay/OTRA%20S.A./c');
    }
  });
});

describe('sandbox payment processor', () => {
  const card = (number: string) => ({ number, expMonth: 12, expYear: 2040, cvc: '123' });
  const charge = (p: SandboxPaymentProcessor, key: string, extra: Record<string, unknown>) =>
    p.charge({ idempotencyKey: key, amountCents: 1000, currency: 'MXN', method: 'CARD', description: 'x', ...extra } as never);

  it('answers by test card, and the same key answers the same', async () => {
    const p = new SandboxPaymentProcessor();
    const approved = await charge(p, 'k1', { card: card(SANDBOX_CARDS.approved) });
    expect(approved.status).to.equal('APPROVED');
    expect(await charge(p, 'k1', { card: card(SANDBOX_CARDS.declined) })).to.deep.equal(approved);
    expect(await charge(p, 'k2', { card: card(SANDBOX_CARDS.declined) })).to.deep.equal({ status: 'DECLINED', reason: 'CARD_DECLINED' });
    expect(await charge(p, 'k3', { card: card(SANDBOX_CARDS.insufficientFunds) })).to.deep.equal({ status: 'DECLINED', reason: 'INSUFFICIENT_FUNDS' });
    let failed = false;
    await charge(p, 'k4', { card: card(SANDBOX_CARDS.unavailable) }).catch(() => (failed = true));
    expect(failed).to.equal(true);
    expect(await charge(p, 'k5', { method: 'TRANSFER', amountCents: 1013 })).to.deep.equal({ status: 'DECLINED', reason: 'TRANSFER_REJECTED' });
    expect((await charge(p, 'k6', { method: 'WALLET', amountCents: 1012 })).status).to.equal('APPROVED');
  });

  it('a refunded key never pays again; cards tokenize to brand and last four', async () => {
    const p = new SandboxPaymentProcessor();
    const approved = await charge(p, 'k1', { card: card(SANDBOX_CARDS.approved) });
    await p.refund({ idempotencyKey: 'refund:k1', reference: (approved as { reference: string }).reference, amountCents: 1000 });
    expect(await charge(p, 'k1', { card: card(SANDBOX_CARDS.approved) })).to.deep.equal({ status: 'DECLINED', reason: 'REFUNDED' });
    expect(await p.tokenizeCard(card('5555555555554444'))).to.deep.include({ status: 'TOKENIZED', brand: 'MASTERCARD', last4: '4444' });
    expect(await p.tokenizeCard(card(SANDBOX_CARDS.declined))).to.deep.equal({ status: 'DECLINED', reason: 'CARD_DECLINED' });
  });
});
