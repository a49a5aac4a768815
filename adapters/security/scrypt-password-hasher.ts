import crypto from 'node:crypto';
import { promisify } from 'node:util';
import type { PasswordHasher } from '../../ports/secret-hasher';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;
const PARAMS = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;
/** Compared against when the user does not exist, so that path costs the same time. */
const DUMMY = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$' + 'A'.repeat(43);

/** Node's built-in scrypt: `scrypt$N$r$p$salt$hash`, base64url. */
export class ScryptPasswordHasher implements PasswordHasher {
  async hash(password: string): Promise<string> {
    const salt = crypto.randomBytes(16);
    const key = await scrypt(password, salt, KEY_LENGTH, PARAMS);
    return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  async verify(password: string, stored: string | null): Promise<boolean> {
    const [scheme, n, r, p, salt, hash] = (stored ?? DUMMY).split('$');
    if (scheme !== 'scrypt' || !salt || !hash) return false;
    const expected = Buffer.from(hash, 'base64url');
    const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
    });
    return stored !== null && actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
  }
}
