import type { IdGenerator } from '../../ports/id-generator';
import { InvalidRequestError } from '../shared/errors';
import { WEBHOOK_SECRET_LENGTH, WEBHOOK_SECRET_PREFIX, type WebhookEndpoint } from './webhook-endpoint';

/** How long the previous secret keeps signing after a rotation when the request does not say. */
export const DEFAULT_SECRET_GRACE_HOURS = 24;
/** The longest grace period: a week, time enough for any receiver's deploy. */
export const MAX_SECRET_GRACE_HOURS = 168;
const HOUR_MS = 3_600_000;

/** A new signing secret: `whsec_` and 32 base62 characters (about 190 bits). */
export function newWebhookSecret(ids: Pick<IdGenerator, 'alphanumeric'>): string {
  return WEBHOOK_SECRET_PREFIX + ids.alphanumeric(WEBHOOK_SECRET_LENGTH);
}

/** `expiresInHours`: absent is the default; else a whole number of hours 0..MAX; 400 on the field otherwise. */
export function parseGraceHours(value: unknown): number {
  if (value === undefined) return DEFAULT_SECRET_GRACE_HOURS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_SECRET_GRACE_HOURS) {
    throw InvalidRequestError.field('expiresInHours', `must be a whole number of hours from 0 to ${MAX_SECRET_GRACE_HOURS}`);
  }
  return value;
}

export type SecretRotation = Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>;

/**
 * The endpoint's secrets after a rotation at `now` (real time): `newSecret` signs from now on and
 * the secret it replaces keeps signing beside it for `graceHours` (0: it stops at once). Rotating
 * again during a grace period keeps only the secret being replaced: the one before it stops at
 * once (at most two secrets sign, the current one and the one it replaced).
 */
export function rotateSecret(endpoint: Pick<WebhookEndpoint, 'secret'>, newSecret: string, graceHours: number, now: Date): SecretRotation {
  if (graceHours === 0) return { secret: newSecret, previousSecret: null, previousSecretExpiresAt: null };
  return { secret: newSecret, previousSecret: endpoint.secret, previousSecretExpiresAt: new Date(now.getTime() + graceHours * HOUR_MS) };
}

/**
 * The secrets a request sent at `at` (real time) is signed with, the current one first: the
 * previous one too while its grace period runs (strictly before its expiry). Every attempt
 * reads them anew, so a retry after a rotation carries the secrets of its own time.
 */
export function signingSecrets(endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>, at: Date): string[] {
  const { previousSecret, previousSecretExpiresAt } = endpoint;
  const previousLive = previousSecret !== null && previousSecretExpiresAt !== null && at.getTime() < previousSecretExpiresAt.getTime();
  return previousLive ? [endpoint.secret, previousSecret] : [endpoint.secret];
}
