import { AesGcmSecretBox } from '../../adapters/security/aes-gcm-secret-box';

/**
 * The SECRETS_KEY of the suites (32 bytes, base64): the API a test builds in its own process and
 * the worker processes it starts must share it, or neither reads what the other sealed.
 */
export const TEST_SECRETS_KEY = 'dGVzdC1zZWNyZXRzLWtleS0zMi1ieXRlcy1sb25nISE=';
export const TEST_SECRETS_KEYS: readonly Buffer[] = [Buffer.from(TEST_SECRETS_KEY, 'base64')];

export function testSecretBox(): AesGcmSecretBox {
  return new AesGcmSecretBox(TEST_SECRETS_KEYS);
}
