/**
 * POST /auth/login's use case: a missing or unknown login key is refused before any password
 * hashing and before the door's admission (its per-username buckets); past the key, every
 * attempt hashes once (an unknown user against a dummy hash) and releases its admission.
 */
import { expect } from 'chai';
import type { LoginAdmission } from '../../../internal/tenancy/commands/login';
import { AuthenticationFailedError, RateLimitedError } from '../../../internal/shared/errors';
import type { PasswordHasher } from '../../../ports/secret-hasher';
import { ScryptPasswordHasher } from '../../../adapters/security/scrypt-password-hasher';
import { memoryWorld } from '../../support/memory-world';

class CountingHasher implements PasswordHasher {
  verified = 0;
  private readonly real = new ScryptPasswordHasher();
  hash(password: string): Promise<string> {
    return this.real.hash(password);
  }
  verify(password: string, stored: string | null): Promise<boolean> {
    this.verified++;
    return this.real.verify(password, stored);
  }
}

describe('Login', () => {
  async function world() {
    const passwords = new CountingHasher();
    const w = memoryWorld(new Date('2031-01-01T00:00:00Z'), { ports: { passwords } });
    const created = await w.app.commands.createClient.execute({ organization: 'Acme', username: 'acme', password: 'right-password', companies: [], settings: {} });
    const admissions: { organizationId: number; clientUsername: string }[] = [];
    let released = 0;
    const admit: LoginAdmission = async (attempt) => {
      admissions.push(attempt);
      return () => released++;
    };
    return { w, passwords, created, admissions, admit, released: () => released };
  }

  it('refuses a missing or unknown login key, or a facade key, before hashing and before the admission', async () => {
    const { w, passwords, created, admissions, admit } = await world();
    for (const loginApiKey of [undefined, '', 'lk_dev_' + 'x'.repeat(40), created.apiKey]) {
      const error = await w.app.commands.login.execute({ loginApiKey, clientUsername: 'acme', password: 'right-password' }, admit).catch((e) => e);
      expect(error).to.be.instanceOf(AuthenticationFailedError);
    }
    expect(passwords.verified).to.equal(0);
    expect(admissions).to.deep.equal([]);
  });

  it('with a good key, admits then hashes exactly once for a right password, a wrong one and an unknown user, and always releases', async () => {
    const { w, passwords, created, admissions, admit, released } = await world();
    const login = (clientUsername: string, password: string) => w.app.commands.login.execute({ loginApiKey: created.loginApiKey, clientUsername, password }, admit);
    const session = await login('acme', 'right-password');
    expect(session.accessToken).to.be.a('string');
    for (const [user, password] of [['acme', 'wrong'], ['nobody', 'right-password']] as const) {
      expect(await login(user, password).catch((e) => e)).to.be.instanceOf(AuthenticationFailedError);
    }
    expect(passwords.verified).to.equal(3);
    expect(admissions).to.deep.equal([
      { organizationId: created.organizationId, clientUsername: 'acme' },
      { organizationId: created.organizationId, clientUsername: 'acme' },
      { organizationId: created.organizationId, clientUsername: 'nobody' },
    ]);
    expect(released()).to.equal(3);
  });

  it('answers the admission\'s refusal without hashing', async () => {
    const { w, passwords, created } = await world();
    const refuse: LoginAdmission = async () => {
      throw new RateLimitedError(4);
    };
    const error = await w.app.commands.login.execute({ loginApiKey: created.loginApiKey, clientUsername: 'acme', password: 'right-password' }, refuse).catch((e) => e);
    expect(error).to.be.instanceOf(RateLimitedError);
    expect(passwords.verified).to.equal(0);
  });
});
