/**
 * Encrypts the secrets the service must be able to read back (webhook signing secrets: they sign
 * every delivery, so they cannot be stored as hashes like API keys). What it returns names the
 * key it was sealed with, so keys can rotate: several keys open, the newest seals.
 */
export interface SecretBox {
  /**
   * The plaintext encrypted and authenticated under the current key. `context` (which row and
   * column the value belongs to) is authenticated too: a sealed value copied elsewhere does not open.
   */
  seal(plaintext: string, context: string): string;
  /** The plaintext of a sealed value; throws when its key is not loaded, or it was altered or moved. */
  open(sealed: string, context: string): string;
  /** True when the value was sealed by a SecretBox (of any key), as opposed to a stored plaintext. */
  isSealed(stored: string): boolean;
  /**
   * Which key sealed the value: the current one, an older one still loaded (sealing it again
   * moves it to the current key), or one that is not loaded (it cannot be opened).
   */
  keyOf(sealed: string): 'current' | 'older' | 'unknown';
}
