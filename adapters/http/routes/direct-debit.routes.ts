import type { Application } from '../../../internal/application';
import type { AdhesionProductRef } from '../../../internal/direct-debit/adhesion-product';
import type { PaymentMethodType } from '../../../internal/direct-debit/payment-method';
import { productNumberFromId } from '../../../internal/products/product';
import { presentAdhesion, presentPaymentMethod } from '../presenters/direct-debit.presenter';
import { route } from '../route';
import {
  adhesionBody, adhesionSchema, listPaymentMethodsQuery, paymentMethodSchema, registerPaymentMethodBody,
} from '../schemas/direct-debit.schemas';
import { dataEnvelope } from '../schemas/common.schemas';
import { invalidRequest } from '../validation';

interface AdhesionBody {
  externalClientId: string;
  productId?: string;
  externalProductId?: string;
}

/** /payment-methods and /adhesions → internal/direct-debit/{commands,queries}. */
export function directDebitRoutes(app: Application) {
  const { enrollAdhesion, cancelAdhesion } = app.commands;
  return [
    route<unknown, { externalClientId: string }>({
      method: 'get', path: '/payment-methods', operationId: 'listPaymentMethods', tag: 'Direct debit', summary: "A user's payment method references (not paginated)",
      description: 'Every payment method the user registered on the hosted enrollment page (masked references only), default first. Not paginated.',
      auth: 'facade', query: listPaymentMethodsQuery, response: paymentMethodSchema, list: 'all', errors: [400, 401],
      handle: async ({ query, scope }) => ({ data: (await app.queries.listPaymentMethods.execute(query.externalClientId, scope)).map(presentPaymentMethod) }),
    }),
    route<AdhesionBody>({
      method: 'post', path: '/adhesions', operationId: 'createAdhesion', tag: 'Direct debit', summary: 'Enroll a user in a product (201 created or reactivated, 200 already ACTIVE)',
      description:
        'Turns on automatic collection of the user\'s autopay debts of that product with their default payment method. Exactly one of ' +
        'productId or externalProductId; any other field is 400. An unknown product is 404, an inactive one 422. 201 when created or ' +
        'an INACTIVE adhesion was made ACTIVE again, 200 with it unchanged when it was already ACTIVE.',
      idempotent: true,
      auth: 'facade', body: adhesionBody, response: adhesionSchema, status: 201, errors: [400, 401, 404, 422],
      answers: {
        200: {
          description: 'The adhesion was already ACTIVE: nothing changed',
          body: dataEnvelope(adhesionSchema),
          examples: { unchanged: { summary: 'Already ACTIVE', value: { data: (adhesionSchema.examples as unknown[])[0], requestId: 'req_8QmZk2VbX1sN4pL7rT0yWc3d' } } },
        },
      },
      handle: async ({ body, scope }) => {
        const { adhesion, changed } = await enrollAdhesion.execute(body.externalClientId, adhesionProduct(body), scope);
        return { status: changed ? 201 : 200, data: presentAdhesion(adhesion) };
      },
    }),
    route<AdhesionBody>({
      method: 'post', path: '/adhesions/cancel', operationId: 'cancelAdhesion', tag: 'Direct debit', summary: "Deactivate a user's adhesion to a product (status INACTIVE)",
      description: 'The adhesion becomes INACTIVE (an INACTIVE one is answered unchanged); a user never enrolled in the product is 404. Exactly one of productId or externalProductId.',
      idempotent: true,
      auth: 'facade', body: adhesionBody, response: adhesionSchema, errors: [400, 401, 404],
      handle: async ({ body, scope }) => ({ data: presentAdhesion(await cancelAdhesion.execute(body.externalClientId, adhesionProduct(body), scope)) }),
    }),
  ];
}

/** Sandbox helper: registers a payment method through the same use case as the enrollment page. */
export function directDebitTestHelperRoutes(app: Application) {
  return [
    route<{ externalClientId: string; paymentMethodType: PaymentMethodType; isDefault?: boolean }>({
      method: 'post', path: '/test-helpers/payment-methods', operationId: 'registerPaymentMethod', tag: 'Sandbox test helpers', summary: 'Register a payment method (what the enrollment page does)',
      description: 'Sandbox only: registers a payment method reference for the user through the same use case as the hosted enrollment page.',
      auth: 'facade', body: registerPaymentMethodBody, response: paymentMethodSchema, status: 201, errors: [400, 401],
      handle: async ({ body, scope }) => {
        const input = { externalClientId: body.externalClientId, type: body.paymentMethodType, isDefault: body.isDefault };
        return { data: presentPaymentMethod(await app.commands.registerPaymentMethod.execute(input, scope)) };
      },
    }),
  ];
}

/** Exactly one of productId or externalProductId. */
function adhesionProduct(body: AdhesionBody): AdhesionProductRef {
  if (body.productId !== undefined && body.externalProductId !== undefined) {
    throw invalidRequest([{ field: 'externalProductId', issue: 'must not be sent with productId' }]);
  }
  if (body.productId !== undefined) return { productNumber: productNumberFromId(body.productId)! };
  if (body.externalProductId !== undefined) return { externalProductId: body.externalProductId.trim() };
  throw invalidRequest([{ field: 'productId', issue: 'exactly one of productId or externalProductId is required' }]);
}
