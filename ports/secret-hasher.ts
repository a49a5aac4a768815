/**
 * Hashes for high-entropy secrets (API keys, refresh tokens): deterministic, so a presented
 * secret is found by its hash, and the secret itself is never stored.
 */
export interface SecretHasher {
  digest(secret: string): string;
}

/** Slow salted hashes for human passwords; `verify` compares in constant time. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string | null): Promise<boolean>;
}
