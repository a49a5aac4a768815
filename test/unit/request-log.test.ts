/** The request log line names the route pattern and non-secret ids only (issue 16, item 6). */
import { expect } from 'chai';
import type { Context } from 'koa';
import { loggedRoute } from '../../adapters/http/middleware/request-context';

const ctx = (route: string | undefined, params: Record<string, string>) => ({ _matchedRoute: route, params }) as unknown as Context;

describe('loggedRoute', () => {
  it('keeps ids and company codes, drops signatures, short codes, tokens, receipt codes, identifiers and wildcards', () => {
    expect(loggedRoute(ctx('/pay/:companyCode/debts/:debtId/:signature', { companyCode: 'ACME', debtId: 'debt_1', signature: 'sig' }))).to.deep.equal({
      route: '/pay/:companyCode/debts/:debtId/:signature',
      params: { companyCode: 'ACME', debtId: 'debt_1' },
    });
    expect(loggedRoute(ctx('/l/:shortCode', { shortCode: 'AbCdEfGhIjKlMnOp' }))).to.deep.equal({ route: '/l/:shortCode' });
    expect(loggedRoute(ctx('/enroll/:token/done/:paymentMethodId', { token: 'payload.tag', paymentMethodId: 'pm_1' }))).to.deep.equal({
      route: '/enroll/:token/done/:paymentMethodId',
      params: { paymentMethodId: 'pm_1' },
    });
    expect(loggedRoute(ctx('/receipts/:code', { code: 'c' }))).to.deep.equal({ route: '/receipts/:code' });
    expect(loggedRoute(ctx('/pay/:companyCode/:identifier', { companyCode: 'ACME', identifier: 'RFC-XAXX010101000' }))).to.deep.equal({
      route: '/pay/:companyCode/:identifier',
      params: { companyCode: 'ACME' },
    });
    expect(loggedRoute(ctx('/pay/*rest', { rest: 'anything/at/all' }))).to.deep.equal({ route: '/pay/*rest' });
    expect(loggedRoute(ctx('/contacts/:id', { id: 'x'.repeat(500) })).params!.id).to.have.length(80);
  });

  it('says unmatched, and nothing of the path, when no route took the request', () => {
    expect(loggedRoute(ctx(undefined, {}))).to.deep.equal({ route: 'unmatched' });
  });
});
