import { creating, debtorAndProduct } from './support';

/** POST /adhesions and the registration of a payment method (what the hosted enrollment page does). */

// Every request a new user of the bench product: each one a created adhesion, never the 200 of an ACTIVE one.
export const adhesionsCreate = creating('adhesions.create', 'POST /adhesions', '/adhesions', async (ctx) => {
  const { productId } = await debtorAndProduct(ctx);
  return (n) => ({ externalClientId: `${clientTag(ctx.runTag)}-adh-${n}`, productId });
});

/**
 * POST /test-helpers/payment-methods: the sandbox door to the same use case as the enrollment
 * page's form (RegisterPaymentMethod), one new user per request (the first method is the default).
 */
export const paymentMethodsCreate = creating('payment-methods.create', 'POST /test-helpers/payment-methods', '/test-helpers/payment-methods', async (ctx) => (n) => ({
  externalClientId: `${clientTag(ctx.runTag)}-pm-${n}`,
  paymentMethodType: 'BANK_ACCOUNT',
}));

/** The run's tag as an externalClientId may hold it (letters, digits, _ and -: the memory passes' tags have a dot). */
function clientTag(runTag: string): string {
  return runTag.replace(/[^A-Za-z0-9_-]/g, '-');
}
