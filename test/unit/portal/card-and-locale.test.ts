import { expect } from 'chai';
import { chooseLocale, formatDate, formatMoney, languageTags, parseAmount } from '../../../adapters/http/pages/locale';
import { parseCard, passesLuhn } from '../../../internal/portal/card';
import { InvalidRequestError } from '../../../internal/shared/errors';

describe('hosted pages: cards', () => {
  it('checks the Luhn digit, the expiry against the current month, and the CVC', () => {
    expect(passesLuhn('4242424242424242')).to.equal(true);
    expect(passesLuhn('4242424242424241')).to.equal(false);
    expect(parseCard({ number: '4242 4242 4242 4242', expiry: '12/31', cvc: '123' }, '2031-12-05', { requireCvc: true })).to.deep.equal({
      number: '4242424242424242', expMonth: 12, expYear: 2031, cvc: '123',
    });
    expect(parseCard({ number: '4242424242424242', expiry: '1/2032' }, '2031-12-05', { requireCvc: false })).to.deep.equal({
      number: '4242424242424242', expMonth: 1, expYear: 2032,
    });
    try {
      parseCard({ number: '4242', expiry: '11/31', cvc: '12' }, '2031-12-05', { requireCvc: true });
      expect.fail('accepted a bad card');
    } catch (error) {
      expect(error).to.be.instanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).details.map((d) => d.field)).to.deep.equal(['cardNumber', 'cardExpiry', 'cardCvc']);
    }
    expect(() => parseCard({ number: '4242424242424242', expiry: '13/31' }, '2031-01-01', { requireCvc: false })).to.throw(InvalidRequestError);
  });
});

describe('hosted pages: locale rules', () => {
  it('picks an exact supported locale, else the language with the currency, else the currency alone', () => {
    expect(chooseLocale('es-AR', 'MXN')).to.equal('es-AR');
    expect(chooseLocale('en-GB, es;q=0.5', 'ARS')).to.equal('en-US');
    expect(chooseLocale('fr-FR, es;q=0.5', 'COP')).to.equal('es-CO');
    expect(chooseLocale('es', 'USD')).to.equal('es-MX');
    expect(chooseLocale('de, es-CL;q=0', 'PEN')).to.equal('es-PE');
    expect(chooseLocale(undefined, 'USD')).to.equal('en-US');
    expect(chooseLocale('', 'CLP')).to.equal('es-CL');
    expect(chooseLocale('*', null)).to.equal('es-MX');
    expect(languageTags('es;q=0.4, en-US, fr;q=0.9')).to.deep.equal(['en-us', 'fr', 'es']);
  });

  it('formats money and dates for each locale', () => {
    expect(formatMoney(150050, 'MXN', 'es-MX')).to.equal('$1,500.50');
    expect(formatMoney(150050, 'ARS', 'es-AR')).to.equal('$\u00a01.500,50');
    expect(formatMoney(150050, 'PEN', 'es-PE')).to.equal('S/\u00a01,500.50');
    expect(formatMoney(150000, 'CLP', 'es-CL')).to.equal('$1.500');
    expect(formatMoney(150050, 'CLP', 'es-CL')).to.equal('$1.500,50');
    expect(formatMoney(150050, 'USD', 'en-US')).to.equal('$1,500.50');
    expect(formatDate('2031-02-28', 'es-CO')).to.equal('28 de febrero de 2031');
    expect(formatDate('2031-02-28', 'en-US')).to.equal('February 28, 2031');
  });

  it('keeps one formatter per locale, currency and fraction style: a format made for one never serves another', () => {
    // Formatters are kept for the process: alternate every key that tells them apart.
    expect(formatMoney(150000, 'CLP', 'es-CL')).to.equal('$1.500');
    expect(formatMoney(150050, 'CLP', 'es-CL')).to.equal('$1.500,50');
    expect(formatMoney(150000, 'CLP', 'es-CL')).to.equal('$1.500');
    expect(formatMoney(150050, 'MXN', 'es-MX')).to.equal('$1,500.50');
    expect(formatMoney(150050, 'USD', 'es-MX')).to.equal('USD\u00a01,500.50');
    expect(formatMoney(150050, 'MXN', 'en-US')).to.equal('MX$1,500.50');
    expect(formatDate('2031-02-28', 'es-CO')).to.equal('28 de febrero de 2031');
    expect(formatDate('2031-02-28', 'en-US')).to.equal('February 28, 2031');
    expect(formatDate('2031-02-28', 'es-CO')).to.equal('28 de febrero de 2031');
  });

  it('reads a typed amount with either separator; groups of three are thousands', () => {
    const cases: [string, number | null][] = [
      ['1.500,50', 150050], ['1,500.50', 150050], ['1500,5', 150050], ['$ 20', 2000], ['1.500', 150000], ['10.50', 1050],
      ['0,01', 1], ['abc', null], ['1,5,0', null], ['1.50.0', null], ['', null], ['-5', null], ['12.345.678,90', 1234567890],
    ];
    for (const [text, cents] of cases) expect(parseAmount(text), text).to.equal(cents);
  });
});
