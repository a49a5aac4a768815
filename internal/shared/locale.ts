import type { Currency } from './currency';

/**
 * The locales the service speaks and formats in: the hosted pages (adapters/http/pages) and the
 * payment reminders (internal/reminders) format money and dates with these same functions.
 */
export const LOCALES = ['es-MX', 'es-AR', 'es-PE', 'es-CO', 'es-CL', 'en-US'] as const;
export type Locale = (typeof LOCALES)[number];

export const LOCALE_BY_CURRENCY: Record<Currency, Locale> = { MXN: 'es-MX', ARS: 'es-AR', PEN: 'es-PE', COP: 'es-CO', CLP: 'es-CL', USD: 'en-US' };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The locale of a currency's country (USD: en-US). */
export function localeOfCurrency(currency: Currency): Locale {
  return LOCALE_BY_CURRENCY[currency];
}

/**
 * Intl formatters are immutable and costly to build (tens of µs each, most of a reminder's
 * formatting); one per locale, currency and fraction style is kept for the process (at most
 * 6 × 6 × 2 money formats and 6 date formats).
 */
const moneyFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<Locale, Intl.DateTimeFormat>();

/** Money in the locale's format; currencies shown without decimals (CLP) show them when there are cents. */
export function formatMoney(cents: number, currency: Currency, locale: Locale): string {
  const withCents = cents % 100 !== 0;
  const key = `${locale} ${currency} ${withCents}`;
  let format = moneyFormats.get(key);
  if (!format) {
    const fraction = withCents ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : {};
    format = new Intl.NumberFormat(locale, { style: 'currency', currency, ...fraction });
    moneyFormats.set(key, format);
  }
  return format.format(cents / 100);
}

/** A plain `YYYY-MM-DD` date, long form, as the calendar day it names (UTC). */
export function formatDate(date: string, locale: Locale): string {
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
    dateFormats.set(locale, format);
  }
  return format.format(new Date(`${date}T00:00:00Z`));
}
