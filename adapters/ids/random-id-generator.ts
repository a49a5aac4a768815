import crypto from 'node:crypto';
import type { IdGenerator } from '../../ports/id-generator';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 62 * 4 = 248: bytes at or above it are dropped so every character is equally likely.
const LIMIT = 248;

/** Random bytes drawn from the CSPRNG this many at a time (one call per few hundred ids, not one per id). */
const POOL_SIZE = 8192;

/** Cryptographically random base62 strings (about 5.95 bits per character). */
export class RandomIdGenerator implements IdGenerator {
  private pool = Buffer.alloc(0);
  private offset = 0;

  alphanumeric(length: number): string {
    let out = '';
    while (out.length < length) {
      if (this.offset >= this.pool.length) {
        this.pool = crypto.randomBytes(POOL_SIZE);
        this.offset = 0;
      }
      const byte = this.pool[this.offset]!;
      // Each byte is used once, then overwritten, so no id can be read back from the pool.
      this.pool[this.offset++] = 0;
      if (byte < LIMIT) out += ALPHABET[byte % 62];
    }
    return out;
  }
}
