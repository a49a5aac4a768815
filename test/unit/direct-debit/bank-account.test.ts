import { expect } from 'chai';
import fc from 'fast-check';
import {
  BANK_ACCOUNT_KIND_BY_CURRENCY, cbuCheckDigit, clabeCheckDigit, isValidCbu, isValidClabe, maskedBankAccount,
} from '../../../internal/direct-debit/bank-account';
import { InvalidRequestError } from '../../../internal/shared/errors';

const fieldOf = (run: () => unknown): string | null => {
  try {
    run();
    return null;
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidRequestError);
    return (error as InvalidRequestError).details[0]!.field;
  }
};

describe('bank accounts of the enrollment page', () => {
  it('takes the account kind from the currency: CLABE, CBU, CCI, else an account number', () => {
    expect(BANK_ACCOUNT_KIND_BY_CURRENCY).to.deep.equal({ MXN: 'CLABE', ARS: 'CBU', PEN: 'CCI', COP: 'ACCOUNT', CLP: 'ACCOUNT', USD: 'ACCOUNT' });
  });

  describe('CLABE (MXN)', () => {
    it('accepts published CLABEs and computes their check digit with weights 3, 7, 1', () => {
      for (const clabe of ['002010077777777771', '032180000118359719']) expect(isValidClabe(clabe), clabe).to.equal(true);
      expect(clabeCheckDigit('00201007777777777')).to.equal(1);
    });

    it('refuses every single-digit change of a valid CLABE, and any other length', () => {
      fc.assert(
        fc.property(fc.stringMatching(/^\d{17}$/), fc.integer({ min: 0, max: 17 }), fc.integer({ min: 1, max: 9 }), (first17, at, delta) => {
          const clabe = first17 + clabeCheckDigit(first17);
          expect(isValidClabe(clabe)).to.equal(true);
          const changed = clabe.slice(0, at) + ((Number(clabe[at]) + delta) % 10) + clabe.slice(at + 1);
          // A weight-1 position shifted by 10 would collide; no single-digit change is a multiple of 10.
          expect(isValidClabe(changed)).to.equal(false);
        }),
      );
      expect(isValidClabe('00201007777777777')).to.equal(false);
      expect(isValidClabe('0020100777777777711')).to.equal(false);
    });

    it('masks to the last four digits and names the field on refusal', () => {
      expect(maskedBankAccount('002-010-07777777777 1', 'MXN')).to.equal('CLABE •••• 7771');
      expect(fieldOf(() => maskedBankAccount('002010077777777772', 'MXN'))).to.equal('accountNumber');
      expect(fieldOf(() => maskedBankAccount('00201007777777777a', 'MXN', 'clabe'))).to.equal('clabe');
      expect(fieldOf(() => maskedBankAccount('000000000000000000', 'MXN'))).to.equal('accountNumber');
    });
  });

  describe('CBU (ARS)', () => {
    it('checks both blocks: bank and branch, then account', () => {
      expect(isValidCbu('2850590940090418135201')).to.equal(true);
      expect(cbuCheckDigit('2850590')).to.equal(9);
      expect(cbuCheckDigit('4009041813520')).to.equal(1);
      expect(isValidCbu('2850591940090418135201'), 'first block').to.equal(false);
      expect(isValidCbu('2850590940090418135202'), 'second block').to.equal(false);
      expect(isValidCbu('285059094009041813520')).to.equal(false);
      fc.assert(
        fc.property(fc.stringMatching(/^\d{7}$/), fc.stringMatching(/^\d{13}$/), (a, b) => {
          expect(isValidCbu(`${a}${cbuCheckDigit(a)}${b}${cbuCheckDigit(b)}`)).to.equal(true);
        }),
      );
      expect(maskedBankAccount('28505909 40090418135201', 'ARS')).to.equal('CBU •••• 5201');
    });
  });

  it('CCI (PEN): 20 digits; account numbers elsewhere: 6 to 20 digits', () => {
    expect(maskedBankAccount('002-193-001234567890-12', 'PEN')).to.equal('CCI •••• 9012');
    expect(fieldOf(() => maskedBankAccount('0021930012345678901', 'PEN'))).to.equal('accountNumber');
    expect(maskedBankAccount('123456', 'COP')).to.equal('Account •••• 3456');
    expect(maskedBankAccount('12345678901234567890', 'CLP')).to.equal('Account •••• 7890');
    expect(fieldOf(() => maskedBankAccount('12345', 'USD'))).to.equal('accountNumber');
    expect(fieldOf(() => maskedBankAccount('123456789012345678901', 'USD'))).to.equal('accountNumber');
    expect(fieldOf(() => maskedBankAccount('', 'COP'))).to.equal('accountNumber');
  });
});
