/** Randomness the core needs: public identifiers and secrets. */
export interface IdGenerator {
  /** A random alphanumeric string (base62) of the given length. */
  alphanumeric(length: number): string;
}
