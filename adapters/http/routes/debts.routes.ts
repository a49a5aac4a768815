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
import {
  debtSchema, externalRequestIdSchema, legacyDebtBody, listDebtsQuery, payDebtBody, updateDebtBody, v2DebtBatchBody, v2DebtBody,
} from '../schemas/debt.schemas';
import { type CheckedBatch, checkBatch, externalRequestIdOf, invalidRequest, itemsProblem, type JsonSchema, validateBody } from '../validation';

const IDEMPOTENCY_KEY = new RegExp(externalRequestIdSchema.pattern as string);

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
      auth: 'facade', handlerBody: { oneOf: [v2DebtBody, v2DebtBatchBody] }, response: debtSchema, status: 201, errors: [400, 401, 404, 422],
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
      auth: 'facade', handlerBody: legacyDebtBody, response: debtSchema, status: 201, errors: [400, 401, 404, 422],
      handle: async ({ body, ctx, scope }) => createSingle(ctx, validateDebtBody(legacyDebtBody, body ?? {}), 'legacy', scope),
    }),
    route<unknown, DebtQuery & PageRequest>({
      method: 'get', path: '/debts', operationId: 'listDebts', tag: 'Debts', summary: 'List debts, newest first, cancelled excluded',
      auth: 'facade', query: listDebtsQuery, response: debtSchema, errors: [400, 401],
      handle: async ({ query, scope }) => {
        const { page, limit } = query;
        const result = await listDebts.execute(debtFilterFrom(query), { page, limit }, scope);
        const today = utcDateOf(scope.clock.now());
        return { data: result.items.map((d) => present(d, scope, { today })), meta: pageMeta({ page, limit }, result) };
      },
    }),
    route({
      method: 'get', path: '/debts/:id', operationId: 'getDebt', tag: 'Debts', summary: 'Retrieve a debt by debtId or externalRequestId (cancelled included)',
      auth: 'facade', response: debtSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: present(await getDebt.execute(params.id!, scope), scope) }),
    }),
    route<{ amount?: number; dueDate?: string }>({
      method: 'patch', path: '/debts/:id', operationId: 'updateDebt', tag: 'Debts', summary: 'Change amount or dueDate of a PENDING debt',
      auth: 'facade', body: updateDebtBody, response: debtSchema, errors: [400, 401, 404, 422],
      handle: async ({ params, body, scope }) => {
        const input = { amountCents: body.amount === undefined ? undefined : centsFromAmount(body.amount), dueDate: body.dueDate };
        return { data: present(await updateDebt.execute(params.id!, input, scope), scope) };
      },
    }),
    route({
      method: 'post', path: '/debts/:id/cancel', operationId: 'cancelDebt', tag: 'Debts', summary: 'Cancel a debt (PENDING, PARTIALLY_PAID or OVERDUE); no body',
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
