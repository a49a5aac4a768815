import type { IdGenerator } from '../../../ports/id-generator';
import type { SecretHasher } from '../../../ports/secret-hasher';
import type { CredentialRepository } from '../../../ports/credential-repository';
import { type ApiKeyKind, apiKeyPrefix, type AppEnv, type ClientUser } from '../credentials';

export const API_KEY_RANDOM_LENGTH = 40;

/** The characters of a key kept in clear: enough to tell keys apart in listings and the audit log. */
export const keyPrefixOf = (key: string): string => key.slice(0, 12);

/** Creates a key for the user in this environment; only its hash is stored. */
export async function issueApiKey(
  deps: { credentials: CredentialRepository; ids: IdGenerator; secrets: SecretHasher; appEnv: AppEnv; now: Date },
  user: ClientUser,
  kind: ApiKeyKind,
): Promise<string> {
  const key = apiKeyPrefix(kind, deps.appEnv) + deps.ids.alphanumeric(API_KEY_RANDOM_LENGTH);
  await deps.credentials.insertApiKey({
    organizationId: user.organizationId,
    clientUserId: user.id,
    kind,
    appEnv: deps.appEnv,
    keyHash: deps.secrets.digest(key),
    prefix: keyPrefixOf(key),
    createdAt: deps.now,
  });
  return key;
}
