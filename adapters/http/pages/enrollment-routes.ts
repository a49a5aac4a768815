import type { RouteTable } from '../segment-router';
import type { Context } from 'koa';
import { EnrollmentExpiredError } from '../../../internal/direct-debit/enrollment-grant';
import { paymentMethodIdOf } from '../../../internal/direct-debit/payment-method';
import { PaymentDeclinedError } from '../../../internal/portal/payment-declined';
import { InvalidRequestError } from '../../../internal/shared/errors';
import { EMPTY_FORM, type FormState } from './components';
import { enrolledDocument, enrollmentDocument } from './enrollment-pages';
import { fieldErrors, formValues, type PageKit, required } from './page-kit';
import { readForm, setPageHeaders } from './page-security';

/** The direct-debit enrollment page behind an enrollment link's token: the form, and its done page. */
export function enrollmentPages(router: RouteTable, kit: PageKit): void {
  const { app, portal, csrf, page, renderContext, send, newForm, formExpired } = kit;


  const grantOf = (ctx: Context) => required(portal.openEnrollment(ctx.params.token!));

  router.get('/enroll/:token', page(async (ctx) => showEnrollment(ctx)));

  async function showEnrollment(ctx: Context, state: FormState = EMPTY_FORM, status = 200): Promise<void> {
    const grant = grantOf(ctx);
    const found = await app.queries.getEnrollmentPage.execute(grant, ctx.state.requestId);
    const r = renderContext(ctx, grant.currency);
    send(ctx, found.status === 'EXPIRED' ? 410 : status, enrollmentDocument(found, r, newForm(ctx), state), r);
  }

  router.post('/enroll/:token', page(async (ctx) => {
    const grant = grantOf(ctx);
    const form = await readForm(ctx);
    if (!csrf.verify(ctx, form)) return formExpired(ctx);
    const values = formValues(form);
    try {
      const { method } = await app.commands.enrollThroughPage.execute(
        {
          grant,
          type: form.get('type') ?? '',
          accountNumber: form.get('accountNumber') ?? '',
          card: { number: form.get('cardNumber') ?? '', expiry: form.get('cardExpiry') ?? '' },
          makeDefault: form.get('makeDefault') === 'on',
          submissionKey: form.get('submission') ?? '',
        },
        ctx.state.requestId,
      );
      ctx.status = 303;
      setPageHeaders(ctx);
      ctx.redirect(`${ctx.path}/done/${paymentMethodIdOf(method)}`);
    } catch (error) {
      if (error instanceof InvalidRequestError) return showEnrollment(ctx, { values, errors: fieldErrors(error) }, 400);
      if (error instanceof EnrollmentExpiredError) return showEnrollment(ctx);
      if (error instanceof PaymentDeclinedError) return showEnrollment(ctx, { values, errors: [], banner: (t) => t.declined(error.reason) }, 402);
      throw error;
    }
  }));

  router.get('/enroll/:token/done/:paymentMethodId', page(async (ctx) => {
    const grant = grantOf(ctx);
    const found = await app.queries.getEnrollmentPage.execute(grant, ctx.state.requestId);
    const methods = await app.queries.listPaymentMethods.execute(grant.externalClientId, found.scope);
    const method = required(methods.find((m) => paymentMethodIdOf(m) === ctx.params.paymentMethodId) ?? null);
    const r = renderContext(ctx, grant.currency);
    send(ctx, 200, enrolledDocument(found.companyName, method, r, ctx.path.replace(/\/done\/[^/]+$/, '')), r);
  }));
}
