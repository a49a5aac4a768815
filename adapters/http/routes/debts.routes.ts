import type { Context } from 'koa';
import type { Application } from '../../../internal/application';
import type { BatchItem } from '../../../internal/debts/commands/create-debt-batch';
import type { ListDebtsInput } from '../../../internal/debts/queries/list-debts';
import { utcDateOf } from '../../../internal/shared/calendar-date';
import { InvalidRequestError } from '../../../internal/shared/errors';
import { centsFromAmount } from '../../../internal/shared/money';
import type { PageRequest } from '../../../internal/shared/page';
import type { TenantScope } from '../../../internal/shared/tenant-scope';
import { type DebtBody, debtDraftFrom, debtFieldRules, isObject } from '../mappers/debt-request';
import type { DebtPresenter } from '../presenters/debt.presenter';
import { pageMeta } from '../presenters/page.presenter';
import { type Reply, route } from '../route';
import { dataEnvelope, errorEnvelopeSchema } from '../schemas/common.schemas';
import {
  debtBatchResultSchema, debtSchema, externalRequestIdSchema, legacyDebtBody, listDebtsQuery, payDebtBody, updateDebtBody, v2DebtBatchBody, v2DebtBody,
} from '../schemas/debt.schemas';
import { type CheckedBatch, checkBatch, externalRequestIdOf, invalidRequest, itemsProblem, type JsonSchema, validateBody } from '../validation';

const IDEMPOTENCY_KEY = new RegExp(externalRequestIdSchema.pattern as string);

const DEBT_ID = 'The debtId (`debt_…`) or the externalRequestId';
const debtAnswer = dataEnvelope(debtSchema);
const debtExample = (debtSchema.examples as Record<string, unknown>[])[0]!;
const batchExample = (status: 201 | 207 | 422) => {
  const created = [
    { ...debtExample, debtId: 'debt_inv-2026-0002', externalRequestId: 'inv-2026-0002', description: 'Invoice 2026-0002', batchId: 'bat_7Kp3Qx9LmW2z', autopay: false, autopayReason: 'NO_PRODUCT' },
    { ...debtExample, debtId: 'debt_inv-2026-0003', externalRequestId: 'inv-2026-0003', amount: 99.9, dueDate: '2026-12-20', batchId: 'bat_7Kp3Qx9LmW2z', autopay: false, autopayReason: 'NO_PRODUCT' },
  ];
  const failed = { index: 1, externalRequestId: 'inv-2026-0003', code: 'RESOURCE_NOT_FOUND', message: 'Contact not found' };
  const value = status === 201
    ? { data: created, batchId: 'bat_7Kp3Qx9LmW2z', requestId: 'req_8QmZk2VbX1sN4pL7rT0yWc3d' }
    : status === 207
      ? { data: created.slice(0, 1), errors: [failed], batchId: 'bat_7Kp3Qx9LmW2z', requestId: 'req_8QmZk2VbX1sN4pL7rT0yWc3d' }
      : { data: [], errors: [{ ...failed, index: 0, externalRequestId: 'inv-2026-0002' }, failed], batchId: 'bat_7Kp3Qx9LmW2z', requestId: 'req_8QmZk2VbX1sN4pL7rT0yWc3d' };
  return { batch: { summary: status === 201 ? 'Every item created' : status === 207 ? 'Some items created' : 'No item created', value } };
};
const singleCreated = { single: { summary: 'One debt', value: { data: { ...debtExample, autopay: false, autopayReason: 'NO_DEFAULT_PAYMENT_METHOD' }, requestId: 'req_8QmZk2VbX1sN4pL7rT0yWc3d' } } };

/** /v2/debts and /debts → internal/debts/{commands,queries}. */
export function debtRoutes(app: Application, present: DebtPresenter) {
  const { createDebt, createDebtBatch, updateDebt, cancelDebt } = app.commands;
  const { getDebt, listDebts } = app.queries;

  const createSingle = async (ctx: Context, body: DebtBody, contract: 'v2' | 'legacy', scope: TenantScope): Promise<Reply> => {
    const result = debtDraftFrom(body, contract);
    if (result.problems) throw invalidRequest(result.problems);
    const { debt, created } = await createDebt.execute(result.draft, idempotencyKey(ctx), scope);
    if (!created) ctx.set('Idempotent-Replayed', 'true');
    return { status: 201, data: present(debt, scope, { creation: true }) };
  };

  return [
    route({
      method: 'post', path: '/v2/debts', operationId: 'createDebt', tag: 'Debts', summary: 'Create one debt, or a batch of up to 50 with { debts: [...] }',
      description:
        'One debt: the `Idempotency-Key` header becomes its externalRequestId (generated when absent); a repeat answers the stored debt ' +
        '(201 with Idempotent-Replayed: true) and creates nothing, also when requests race. Undeclared fields are 400. The debtor is ' +
        '`externalClientId` or `contactData`; autopay is evaluated and reported (autopay, autopayReason or autopayInstrument).\n\n' +
        'A batch: `{ debts: [...] }`, 1 to 50 items each with its own externalRequestId, created independently: 201 when all were, ' +
        '207 with `errors[]` when some failed, 422 when none was created. A malformed item makes the whole batch 400, naming each ' +
        'invalid item by `index` and `externalRequestId`. A repeated key across batches answers the stored debt for that item.',
      auth: 'facade', handlerBody: { oneOf: [v2DebtBody, v2DebtBatchBody] }, response: debtSchema, status: 201, errors: [400, 401, 404, 422],
      idempotent: true, idempotencyKey: 'replays',
      answers: {
        201: {
          description: 'Created: the debt (or, replayed, the stored one), or every item of a batch',
          body: { oneOf: [debtAnswer, debtBatchResultSchema] },
          headers: ['IdempotentReplayed'],
          examples: { ...singleCreated, ...batchExample(201) },
        },
        207: { description: 'A batch where some items were created and some failed (`errors[]`)', body: debtBatchResultSchema, examples: batchExample(207) },
        422: {
          description: 'One debt the rules refuse (BUSINESS_RULE_VIOLATION, RESOLUTION_ERROR), or a batch where no item was created',
          body: { oneOf: [errorEnvelopeSchema, debtBatchResultSchema] },
          examples: {
            single: { summary: 'One debt', value: { error: { code: 'BUSINESS_RULE_VIOLATION', message: 'The product is not active' }, requestId: 'req_8QmZk2VbX1sN4pL7rT0yWc3d' } },
            ...batchExample(422),
          },
        },
      },
      handle: async ({ body, ctx, scope }) => {
        const isBatch = body !== null && typeof body === 'object' && !Array.isArray(body) && 'debts' in body;
        if (!isBatch) return createSingle(ctx, validateDebtBody(v2DebtBody, body ?? {}), 'v2', scope);
        const items = batchItems(checkBatch<{ debts: (DebtBody & { externalRequestId: string })[] }>(v2DebtBatchBody, body, 'debts'));
        const { batchId, outcomes } = await createDebtBatch.execute(items, scope);
        const data = outcomes.flatMap((o) => (o.debt ? [present(o.debt, scope, { creation: true })] : []));
        const errors = outcomes.flatMap((o, index) =>
          o.error ? [{ index, externalRequestId: items[index]!.externalRequestId, code: o.error.code, message: o.error.message }] : [],
        );
        const status = errors.length === 0 ? 201 : data.length === 0 ? 422 : 207;
        return { status, data, extra: errors.length > 0 ? { errors, batchId } : { batchId } };
      },
    }),
    route({
      method: 'post', path: '/debts', operationId: 'createLegacyDebt', tag: 'Debts', summary: 'Create a debt (legacy contract: productName, paymentMethods, autopay)',
      description:
        'The legacy contract: undeclared fields are ignored; adds productName, paymentMethods and autopay. The Idempotency-Key header ' +
        'works as on POST /v2/debts.',
      idempotent: true, idempotencyKey: 'replays',
      auth: 'facade', handlerBody: legacyDebtBody, response: debtSchema, status: 201, errors: [400, 401, 404, 422],
      handle: async ({ body, ctx, scope }) => createSingle(ctx, validateDebtBody(legacyDebtBody, body ?? {}), 'legacy', scope),
    }),
    route<unknown, DebtQuery & PageRequest>({
      method: 'get', path: '/debts', operationId: 'listDebts', tag: 'Debts', summary: 'List debts, newest first, cancelled excluded',
      description:
        'Newest first; cancelled debts are not listed. Filters combine. `status` is the effective one. createdAtFrom/createdAtTo take an ' +
        'RFC 3339 instant, or a date meaning that whole UTC day.',
      auth: 'facade', query: listDebtsQuery, response: debtSchema, list: 'page', errors: [400, 401],
      handle: async ({ query, scope }) => {
        const { page, limit } = query;
        const result = await listDebts.execute(debtFilterFrom(query), { page, limit }, scope);
        const today = utcDateOf(scope.clock.now());
        return { data: result.items.map((d) => present(d, scope, { today })), meta: pageMeta({ page, limit }, result) };
      },
    }),
    route({
      method: 'get', path: '/debts/:id', operationId: 'getDebt', tag: 'Debts', summary: 'Retrieve a debt by debtId or externalRequestId (cancelled included)',
      description: 'Cancelled debts included. The status is the effective one (a PENDING debt past its due date reads OVERDUE).',
      params: { id: DEBT_ID },
      auth: 'facade', response: debtSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: present(await getDebt.execute(params.id!, scope), scope) }),
    }),
    route<{ amount?: number; dueDate?: string }>({
      method: 'patch', path: '/debts/:id', operationId: 'updateDebt', tag: 'Debts', summary: 'Change amount or dueDate of a PENDING debt',
      description: 'Only amount and dueDate, at least one (anything else is 400); a debt that is not PENDING is 422.',
      params: { id: DEBT_ID },
      idempotent: true,
      auth: 'facade', body: updateDebtBody, response: debtSchema, errors: [400, 401, 404, 422],
      handle: async ({ params, body, scope }) => {
        const input = { amountCents: body.amount === undefined ? undefined : centsFromAmount(body.amount), dueDate: body.dueDate };
        return { data: present(await updateDebt.execute(params.id!, input, scope), scope) };
      },
    }),
    route({
      method: 'post', path: '/debts/:id/cancel', operationId: 'cancelDebt', tag: 'Debts', summary: 'Cancel a debt (PENDING, PARTIALLY_PAID or OVERDUE); no body',
      description: 'No body (whatever is sent is ignored). A PAID or CANCELLED debt is 422.',
      params: { id: DEBT_ID },
      auth: 'facade', response: debtSchema, errors: [401, 404, 422],
      handle: async ({ params, scope }) => ({ data: present(await cancelDebt.execute(params.id!, scope), scope) }),
    }),
  ];
}

/** Sandbox helper: a payment through the same use case as every other payment path. */
export function debtTestHelperRoutes(app: Application, present: DebtPresenter) {
  return [
    route<{ amount?: number }>({
      method: 'post', path: '/test-helpers/debts/:id/pay', operationId: 'payDebt', tag: 'Sandbox test helpers', summary: 'Pay a debt (default: the remaining amount)',
      description:
        'Sandbox only. A payment through the same use case as every other: 422 for a final state, an overdue debt that forbids it, a ' +
        'partial payment where not allowed, more than the remaining amount, or a cycle paid out of order.',
      params: { id: DEBT_ID },
      auth: 'facade', body: payDebtBody, response: debtSchema, status: 201, errors: [400, 401, 404, 422],
      handle: async ({ params, body, scope }) => {
        const amountCents = body.amount === undefined ? undefined : centsFromAmount(body.amount);
        return { data: present(await app.commands.payDebt.execute(params.id!, amountCents, 'test-helper', scope), scope) };
      },
    }),
  ];
}

/** The GET /debts query as the schema lets it through (amounts still in currency units). */
export type DebtQuery = Omit<ListDebtsInput, 'minAmountCents' | 'maxAmountCents' | 'paymentLinkId'> & { minAmount?: number; maxAmount?: number };

/** The GET /debts filters, shared by GET /payment-links/{id}/payments. */
export function debtFilterFrom(query: DebtQuery & Partial<PageRequest>): ListDebtsInput {
  const { page: _page, limit: _limit, minAmount, maxAmount, ...filter } = query;
  return {
    ...filter,
    minAmountCents: minAmount === undefined ? undefined : centsFromAmount(minAmount, 'minAmount', 0),
    maxAmountCents: maxAmount === undefined ? undefined : centsFromAmount(maxAmount, 'maxAmount', 0),
  };
}

function idempotencyKey(ctx: Context): string | undefined {
  const key = ctx.get('idempotency-key');
  if (key === '') return undefined;
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw InvalidRequestError.field('Idempotency-Key', 'must be 1 to 150 letters, digits or . _ : - starting with a letter or digit');
  }
  return key;
}

/**
 * A single debt body: the schema, and the rules between fields, in one 400 when either fails
 * (a body the schema refused still hears that it names no debtor, say).
 */
function validateDebtBody(schema: JsonSchema, body: unknown): DebtBody {
  try {
    return validateBody<DebtBody>(schema, body);
  } catch (error) {
    if (!(error instanceof InvalidRequestError) || !isObject(body)) throw error;
    throw invalidRequest([...error.details, ...debtFieldRules(body)]);
  }
}

/**
 * Batch items after the schema: unique externalRequestIds across every item, and the rules between
 * fields for each item the schema accepted; one 400 names every invalid item.
 */
function batchItems(checked: CheckedBatch<{ debts: (DebtBody & { externalRequestId: string })[] }>): BatchItem[] {
  const problems = [...checked.details];
  const seen = new Map<string, number>();
  const items = checked.body.debts.map((item, index) => {
    const externalRequestId = externalRequestIdOf(item);
    if (externalRequestId !== null) {
      const first = seen.get(externalRequestId);
      if (first !== undefined) problems.push({ index, externalRequestId, field: 'externalRequestId', issue: `repeats item ${first}` });
      else seen.set(externalRequestId, index);
    }
    if (checked.refused.has(index)) {
      // The schema refused it: the rules between fields still name what else is wrong with it.
      if (isObject(item)) for (const p of debtFieldRules(item)) problems.push({ index, externalRequestId, ...p });
      return null;
    }
    const { externalRequestId: _key, ...body } = item;
    const result = debtDraftFrom(body, 'v2');
    for (const p of result.problems ?? []) problems.push({ index, externalRequestId, ...p });
    return { externalRequestId: item.externalRequestId, draft: result.draft! };
  });
  const problem = itemsProblem(problems);
  if (problem) throw problem;
  return items as BatchItem[];
}
