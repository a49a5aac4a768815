export const CURRENCIES = ['MXN', 'ARS', 'PEN', 'COP', 'CLP', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Convention 5: the organization default applies when a request omits the currency, else MXN. */
export const FALLBACK_CURRENCY: Currency = 'MXN';

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}
