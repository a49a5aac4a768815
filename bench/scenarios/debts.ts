import { dateInDays, debtorAndProduct, rotatingGet } from './support';
import type { Scenario } from './types';

/** POST /v2/debts, single and in batches, legacy POST /debts, and GET /debts/{id} (the lists: debt-lists.ts). */

export const BATCH_ITEMS = 50;

export const debtsCreate: Scenario = {
  id: 'debts.create',
  label: 'POST /v2/debts (single)',
  service: 'api',
  kind: 'api',
  baseline: 'baseline.koa-insert',
  expectStatus: 201,
  load: async (ctx) => {
    const debtor = await debtorAndProduct(ctx);
    const body = JSON.stringify({ ...debtor, amount: 1250.5, dueDate: dateInDays(30), description: 'Bench debt' });
    let n = 0;
    return {
      method: 'POST',
      path: '/v2/debts',
      headers: { ...ctx.headers, 'content-type': 'application/json' },
      body,
      vary: () => ({ headers: { 'idempotency-key': `${ctx.runTag}-single-${++n}` } }),
    };
  },
};

/**
 * Legacy POST /debts: the same debtor, and the product by name (productName: found, never created
 * again after the first request), each request a new Idempotency-Key.
 */
export const debtsLegacyCreate: Scenario = {
  id: 'debts.legacy.create',
  label: 'POST /debts (legacy)',
  service: 'api',
  kind: 'api',
  baseline: 'baseline.koa-insert',
  expectStatus: 201,
  load: async (ctx) => {
    const { externalClientId } = await debtorAndProduct(ctx);
    const body = JSON.stringify({ externalClientId, productName: `Bench product ${ctx.runTag}`, amount: 980.25, dueDate: dateInDays(30), description: 'Bench legacy debt' });
    let n = 0;
    return {
      method: 'POST',
      path: '/debts',
      headers: { ...ctx.headers, 'content-type': 'application/json' },
      body,
      vary: () => ({ headers: { 'idempotency-key': `${ctx.runTag}-legacy-${++n}` } }),
    };
  },
};

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

export const debtsGet = rotatingGet('debts.get', 'GET /debts/{id}', '/debts?limit=500', (d: { debtId: string }) => `/debts/${d.debtId}`);
