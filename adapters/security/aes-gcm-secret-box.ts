import crypto from 'node:crypto';
import type { SecretBox } from '../../ports/secret-box';

/** A sealed value: `enc:v1:<key id>:<base64url(12-byte IV ‖ ciphertext ‖ 16-byte tag)>`. */
const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRETS_KEY_BYTES = 32;

/**
 * AES-256-GCM with a random 96-bit IV per value, the caller's context as additional
 * authenticated data, and the key's id in the value (SECRETS_KEY, decisions.md section 1).
 * `keys` are newest first: the first seals, every one opens. A key's id is derived from the key
 * (HMAC-SHA256 of a fixed label, 8 bytes in hex), so operators never name keys and an id tells
 * nothing about its key.
 */
export class AesGcmSecretBox implements SecretBox {
  private readonly keys: Map<string, Buffer>;
  private readonly currentId: string;

  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new Error('AesGcmSecretBox needs at least one key');
    for (const key of keys) if (key.length !== SECRETS_KEY_BYTES) throw new Error(`a secrets key is ${SECRETS_KEY_BYTES} bytes`);
    this.keys = new Map(keys.map((key) => [secretsKeyId(key), Buffer.from(key)]));
    this.currentId = secretsKeyId(keys[0]!);
  }

  seal(plaintext: string, context: string): string {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.keys.get(this.currentId)!, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${PREFIX}${this.currentId}:${Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64url')}`;
  }

  open(sealed: string, context: string): string {
    const { keyId, payload } = parse(sealed);
    const key = this.keys.get(keyId);
    // The id only: never the value, which is secret material.
    if (!key) throw new Error(`a stored secret is sealed with key ${keyId}, which is not loaded (SECRETS_KEY)`);
    const bytes = Buffer.from(payload, 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('a stored secret is not a valid sealed value');
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(`a stored secret sealed with key ${keyId} does not authenticate (altered, or moved from another row)`);
    }
  }

  isSealed(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }

  keyOf(sealed: string): 'current' | 'older' | 'unknown' {
    const { keyId } = parse(sealed);
    return keyId === this.currentId ? 'current' : this.keys.has(keyId) ? 'older' : 'unknown';
  }
}

/** The id a sealed value names its key by: 16 hex characters derived from the key. */
export function secretsKeyId(key: Buffer): string {
  return crypto.createHmac('sha256', key).update('collections-facade secrets key id').digest('hex').slice(0, 16);
}

function parse(sealed: string): { keyId: string; payload: string } {
  const match = /^enc:v1:([0-9a-f]{16}):([A-Za-z0-9_-]+)$/.exec(sealed);
  if (!match) throw new Error('a stored secret is not a valid sealed value');
  return { keyId: match[1]!, payload: match[2]! };
}

/**
 * A SECRETS_KEY entry: 32 bytes as 64 hex characters, or base64 (standard or URL-safe, padding
 * optional). Anything else throws without repeating the value.
 */
export function parseSecretsKey(text: string, name: string): Buffer {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const key = Buffer.from(value.replace(/=$/, '').replace(/\+/g, '-').replace(/\//g, '_'), 'base64url');
    if (key.length === SECRETS_KEY_BYTES) return key;
  }
  throw new Error(`${name} must hold 32 random bytes as base64 or 64 hex characters (e.g. openssl rand -base64 32)`);
}
