/** Assertions on the HTTP envelope (`{ data, requestId }` / `{ error: { code, message, details? }, requestId }`) shared by the test/http suites. */
import { expect } from 'chai';
import type { Response } from 'supertest';

export const REQUEST_ID = /^req_[A-Za-z0-9]+$/;

/** The details[].field values of an error answer (none when it has no details). */
export const fieldsOf = (res: Response): string[] => (res.body.error?.details ?? []).map((d: { field: string }) => d.field);

/** `status` with a requestId; returns `data`. */
export function expectOk<T = Record<string, any>>(res: Response, status = 200): T {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body.requestId).to.match(REQUEST_ID);
  return res.body.data;
}

/**
 * An error answer with `status`, `code` and a non-empty message. With `field`, details[] names it;
 * without, a non-400 answer has no details.
 */
export function expectError(res: Response, status: number, code: string, field?: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body.error.code).to.equal(code);
  expect(res.body.error.message).to.be.a('string').and.not.empty;
  expect(res.body.requestId).to.match(REQUEST_ID);
  if (field === undefined) {
    if (status !== 400) expect(res.body.error).to.not.have.property('details');
  } else {
    const fields = (res.body.error.details as { field: string }[]).map((d) => d.field);
    expect(fields, JSON.stringify(res.body.error)).to.include(field);
  }
}

export const expectRuleViolation = (res: Response) => expectError(res, 422, 'BUSINESS_RULE_VIOLATION');
export const expectNotFound = (res: Response) => expectError(res, 404, 'RESOURCE_NOT_FOUND');

/** 400 INVALID_REQUEST whose details[] (all `{ field, issue }`) name `field`; `label` prefixes the failure messages. */
export function expectInvalid(res: Response, field: string, label = ''): void {
  expect(res.status, `${label} ${JSON.stringify(res.body)}`).to.equal(400);
  expect(res.body.error.code).to.equal('INVALID_REQUEST');
  expect(res.body.requestId).to.match(REQUEST_ID);
  const details = res.body.error.details as { field: unknown; issue: unknown }[];
  expect(details, `${label} ${JSON.stringify(res.body)}`).to.be.an('array').that.is.not.empty;
  for (const d of details) {
    expect(d.field).to.be.a('string');
    expect(d.issue).to.be.a('string');
  }
  expect(fieldsOf(res), `${label} ${JSON.stringify(res.body)}`).to.include(field);
}

/** A non-validation failure: real status, code, a message, and no details. */
export function expectFailure(res: Response, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body.error.code).to.equal(code);
  expect(res.body.error.message).to.be.a('string');
  expect(res.body.error).to.not.have.property('details');
  expect(res.body.requestId).to.match(REQUEST_ID);
}
