import type { Currency } from '../../../internal/shared/currency';
import { LOCALE_BY_CURRENCY, LOCALES, type Locale } from '../../../internal/shared/locale';

export { LOCALES, formatDate, formatMoney, type Locale } from '../../../internal/shared/locale';

/**
 * The locales the hosted pages speak and format in. Rules (docs/hosted-pages.md):
 * 1. The first Accept-Language entry (by q) that names a supported locale exactly wins.
 * 2. Otherwise the first entry whose language is `es` gets the locale of the charge's currency
 *    (MXN es-MX, ARS es-AR, PEN es-PE, COP es-CO, CLP es-CL; USD es-MX), and `en` gets en-US.
 * 3. Without a usable Accept-Language: the currency's locale (USD: en-US), else es-MX.
 */
const SPANISH_BY_CURRENCY: Record<Currency, Locale> = { ...LOCALE_BY_CURRENCY, USD: 'es-MX' };

export function chooseLocale(acceptLanguage: string | undefined, currency: Currency | null): Locale {
  for (const tag of languageTags(acceptLanguage ?? '')) {
    const exact = LOCALES.find((l) => l.toLowerCase() === tag);
    if (exact) return exact;
    const language = tag.split('-')[0];
    if (language === 'es') return currency ? SPANISH_BY_CURRENCY[currency] : 'es-MX';
    if (language === 'en') return 'en-US';
  }
  return currency ? LOCALE_BY_CURRENCY[currency] : 'es-MX';
}

/** Accept-Language tags, lower-cased, by descending q (ties keep their order); q=0 dropped. */
export function languageTags(header: string): string[] {
  return header
    .split(',')
    .slice(0, 20)
    .map((entry, index) => {
      const [tag = '', ...params] = entry.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q[1]) : 1, index };
    })
    .filter((e) => e.tag !== '' && e.tag !== '*' && e.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((e) => e.tag);
}

/** A plain date in a table cell: `15 jun 2031` (the calendar day it names). */
export function formatShortDate(date: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

/** An instant, in UTC (the service's time for every date rule), saying so. */
export function formatInstant(instant: Date, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(instant) + ' UTC';
}

/** A number as the locale writes it, for a form field's value (no currency sign). */
export function formatPlainAmount(cents: number, locale: Locale): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(cents / 100);
}

/**
 * An amount typed by a person, in cents; null when it is not one. Either separator works: a
 * separator followed by one or two final digits is the decimal one (amounts have at most two
 * decimals), groups of three digits are thousands (`1.500,50`, `1,500.50`, `1500,5`, `$ 20`).
 */
export function parseAmount(text: string): number | null {
  const s = text.replace(/[\s\u00a0\u202f]/g, '').replace(/^[^\d.,-]+/, '');
  if (!/^[\d.,]+$/.test(s)) return null;
  const decimal = /^(.*?)[.,](\d{1,2})$/.exec(s);
  const integer = decimal ? decimal[1]! : s;
  const fraction = decimal ? decimal[2]!.padEnd(2, '0') : '00';
  if (!/^\d+$/.test(integer) && !/^\d{1,3}(\.\d{3})+$/.test(integer) && !/^\d{1,3}(,\d{3})+$/.test(integer)) return null;
  const cents = Number(integer.replace(/[.,]/g, '')) * 100 + Number(fraction);
  return Number.isSafeInteger(cents) ? cents : null;
}
