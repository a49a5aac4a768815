/** Where a key is presented: the facade (resource routes) or the login endpoints. */
export type ApiKeyKind = 'facade' | 'login';
export const APP_ENVS = ['development', 'staging', 'production'] as const;
export type AppEnv = (typeof APP_ENVS)[number];

export interface ClientUser {
  id: number;
  organizationId: number;
  username: string;
  passwordHash: string;
  disabled: boolean;
  createdAt: Date;
}

export interface ApiKeyRecord {
  organizationId: number;
  clientUserId: number;
  kind: ApiKeyKind;
  appEnv: AppEnv;
  keyHash: string;
  /** First characters of the key, kept to tell keys apart in operator listings. */
  prefix: string;
  createdAt: Date;
}

export const ACCESS_TOKEN_TTL_SECONDS = 4 * 60 * 60;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A refresh token family left without tokens is purged only once it is this old (its first token may be on its way). */
export const REFRESH_TOKEN_FAMILY_PURGE_GRACE_MS = 60 * 60 * 1000;

/** Keys say what they are and where they work: `ck_dev_…` (facade), `lk_dev_…` (login). */
export function apiKeyPrefix(kind: ApiKeyKind, env: AppEnv): string {
  const envTag = env === 'development' ? 'dev' : env === 'staging' ? 'stg' : 'live';
  return `${kind === 'facade' ? 'ck' : 'lk'}_${envTag}_`;
}
