import { expect } from 'chai';
import * as errors from '../../internal/shared/errors';
import { type ErrorCode, toErrorReply } from '../../adapters/http/error-mapping';

describe('error mapping', () => {
  // Every concrete DomainError the core exports, built with a message (or its own arguments).
  const domainErrors: errors.DomainError[] = [
    new errors.InvalidRequestError('bad', [{ field: 'amount', issue: 'must be positive' }]),
    new errors.AuthenticationFailedError(),
    new errors.NotFoundError('Debt'),
    new errors.ConflictError('taken'),
    new errors.BusinessRuleViolationError('no'),
    new errors.ResolutionError('which one'),
    new errors.RateLimitedError(3),
  ];

  it('lists every DomainError class the core exports', () => {
    const exported = Object.values(errors).filter((value) => typeof value === 'function' && value.prototype instanceof errors.DomainError);
    expect(domainErrors.map((e) => e.constructor)).to.have.members(exported);
  });

  it('builds domain errors without a stack trace, and leaves other errors theirs', () => {
    for (const error of domainErrors) expect(error.stack, error.name).to.equal(`${error.name}: ${error.message}`);
    expect(Error.stackTraceLimit).to.be.greaterThan(0);
    expect(new Error('fault').stack).to.match(/\n\s+at /);
  });

  it('answers every domain error with its 4xx status and code, never a 500', () => {
    const expected: Partial<Record<ErrorCode, number>> = {
      INVALID_REQUEST: 400, AUTHENTICATION_FAILED: 401, RESOURCE_NOT_FOUND: 404, RESOURCE_CONFLICT: 409,
      BUSINESS_RULE_VIOLATION: 422, RESOLUTION_ERROR: 422, RATE_LIMITED: 429,
    };
    for (const error of domainErrors) {
      const reply = toErrorReply(error);
      expect(reply, error.code).to.include({ status: expected[error.code], internal: false });
      expect(reply.body.code).to.equal(error.code);
    }
    expect(toErrorReply(new errors.RateLimitedError(3)).headers).to.deep.equal({ 'Retry-After': '3' });
    expect(toErrorReply(domainErrors[0]).body.details).to.deep.equal([{ field: 'amount', issue: 'must be positive' }]);
  });

  it('hides anything else behind 500 INTERNAL_ERROR', () => {
    expect(toErrorReply(new Error('select * from secrets'))).to.deep.equal({ status: 500, body: { code: 'INTERNAL_ERROR', message: 'Internal error' }, internal: true });
  });

  it('refuses, at compile time, a domain error code without a status', () => {
    // @ts-expect-error a code outside DomainErrorCode is not a DomainError's code
    class Unmapped extends errors.DomainError { readonly code = 'NOT_MAPPED'; }
    expect(Unmapped).to.be.a('function');
  });
});
