import { dateInDays, debtorAndProduct, rotatingGet } from './support';
import type { Context, Scenario } from './types';

/** POST /v2/debts, single and in batches, legacy POST /debts, and GET /debts/{id} (the lists: debt-lists.ts). */

export const BATCH_ITEMS = 50;

/**
 * One debt per request: the same body each time, a new Idempotency-Key (`<runTag>-<keyPart>-<n>`,
 * which the bench counts the stored debts by) on each.
 */
function keyedDebts(id: string, label: string, path: string, keyPart: string, bodyOf: (ctx: Context) => Promise<unknown>): Scenario {
  return {
    id,
    label,
    service: 'api',
    kind: 'api',
    baseline: 'baseline.koa-insert',
    expectStatus: 201,
    load: async (ctx) => {
      const body = JSON.stringify(await bodyOf(ctx));
      let n = 0;
      return {
        method: 'POST',
        path,
        headers: { ...ctx.headers, 'content-type': 'application/json' },
        body,
        vary: () => ({ headers: { 'idempotency-key': `${ctx.runTag}-${keyPart}-${++n}` } }),
      };
    },
  };
}

export const debtsCreate = keyedDebts('debts.create', 'POST /v2/debts (single)', '/v2/debts', 'single', async (ctx) => ({
  ...(await debtorAndProduct(ctx)),
  amount: 1250.5,
  dueDate: dateInDays(30),
  description: 'Bench debt',
}));

/**
 * Legacy POST /debts: the same debtor, and the product by name (productName: found, never created
 * again after the first request).
 */
export const debtsLegacyCreate = keyedDebts('debts.legacy.create', 'POST /debts (legacy)', '/debts', 'legacy', async (ctx) => ({
  externalClientId: (await debtorAndProduct(ctx)).externalClientId,
  productName: `Bench product ${ctx.runTag}`,
  amount: 980.25,
  dueDate: dateInDays(30),
  description: 'Bench legacy debt',
}));

export const debtsBatch: Scenario = {
  id: 'debts.batch',
  label: 'POST /v2/debts (batch of 50)',
  service: 'api',
  kind: 'api',
  baseline: 'baseline.koa-insert',
  connections: 4,
  itemsPerRequest: BATCH_ITEMS,
  expectStatus: 201,
  load: async (ctx) => {
    const debtor = await debtorAndProduct(ctx);
    const dueDate = dateInDays(30);
    let n = 0;
    return {
      method: 'POST',
      path: '/v2/debts',
      headers: { ...ctx.headers, 'content-type': 'application/json' },
      vary: () => {
        n += 1;
        const debts = Array.from({ length: BATCH_ITEMS }, (_, i) => ({
          externalRequestId: `${ctx.runTag}-batch-${n}-${i}`,
          ...debtor,
          amount: 100 + i,
          dueDate,
        }));
        return { body: JSON.stringify({ debts }) };
      },
    };
  },
};

export const debtsGet = rotatingGet('debts.get', 'GET /debts/{id}', '/debts?limit=500', (d: { debtId: string }) => `/debts/${d.debtId}`, 'debts.create');

/**
 * POST /v2/debts refused by validation (400, amount below the minimum): the request pipeline
 * (authentication, rate limit, body, validation, error envelope) without the use case or any
 * statement, so the figures show what every request pays before its own work.
 */
export const debtsRefused: Scenario = {
  ...keyedDebts('debts.refused', 'POST /v2/debts refused (400)', '/v2/debts', 'refused', async (ctx) => ({
    ...(await debtorAndProduct(ctx)),
    amount: -5,
    dueDate: dateInDays(30),
    description: 'Bench debt',
  })),
  expectStatus: 400,
  skipInQuick: true,
};
