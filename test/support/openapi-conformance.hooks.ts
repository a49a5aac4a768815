/**
 * Root hooks (loaded by .mocharc.cjs in every mocha run): a test during which a harness API
 * answered something /openapi.json does not declare fails, naming each mismatch
 * (test/support/openapi-conformance.ts).
 */
import type { Context } from 'mocha';
import { takeViolations } from './openapi-conformance';

function failure(violations: string[]): Error {
  return new Error(`answers that do not match /openapi.json:\n- ${violations.join('\n- ')}`);
}

export const mochaHooks = {
  afterEach(this: Context) {
    const violations = takeViolations();
    // Fails the test that just ran (not this hook), so the report names it.
    if (violations.length > 0) (this.test as unknown as { error(error: Error): void }).error(failure(violations));
  },
  afterAll() {
    const violations = takeViolations();
    if (violations.length > 0) throw failure(violations);
  },
};
