/**
 * The debtor's name as a payment page shows it. Pages reached by a capability (a signed debt or
 * subscription URL, a private link's opaque code) show it whole, so the debtor sees the charge is
 * theirs. A public link page is found by its identifier, which is often guessable (a debtor's
 * externalClientId): there the name is only partial, the first letter of each word, so guessing
 * identifiers does not turn up who owes what (docs/security.md).
 */
export interface PortalDebtor {
  name: string;
  /** True when `name` is the partial form. */
  partial: boolean;
}

const MASK = '•••';
const MAX_WORDS = 4;

/** `Ana María Registro` → `A••• M••• R•••`: each word's first letter and a fixed mask (word lengths stay hidden). */
export function partialName(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean).slice(0, MAX_WORDS);
  return words.map((word) => `${Array.from(word)[0]!.toLocaleUpperCase()}${MASK}`).join(' ');
}

export function portalDebtor(name: string | null, partial: boolean): PortalDebtor | null {
  if (name === null || name.trim() === '') return null;
  return partial ? { name: partialName(name), partial: true } : { name, partial: false };
}
