import crypto from 'node:crypto';
import type { IdGenerator } from '../../ports/id-generator';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 62 * 4 = 248: bytes at or above it are dropped so every character is equally likely.
const LIMIT = 248;

/** Cryptographically random base62 strings (about 5.95 bits per character). */
export class RandomIdGenerator implements IdGenerator {
  alphanumeric(length: number): string {
    let out = '';
    while (out.length < length) {
      for (const byte of crypto.randomBytes(length * 2)) {
        if (byte < LIMIT) out += ALPHABET[byte % 62];
        if (out.length === length) break;
      }
    }
    return out;
  }
}
