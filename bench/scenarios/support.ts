import type { Context, Scenario } from './types';

/** What the scenarios share: calls to the API, the debtor of the debt scenarios, request bodies. */

/** GET one resource by id, rotating through up to 500 of those a list answers (reads served from MySQL). */
export function rotatingGet<T>(id: string, label: string, listPath: string, pathOf: (item: T) => string, createdBy: string): Scenario {
  return {
    id,
    label,
    service: 'api',
    kind: 'api',
    baseline: 'baseline.koa-json',
    needs: [createdBy],
    expectStatus: 200,
    load: async (ctx) => {
      const page = await apiCall(ctx, 'GET', listPath);
      const paths = (page.data as T[]).map(pathOf);
      if (paths.length === 0) throw new Error(`GET ${listPath} returned nothing to read back`);
      ctx.dataset[`${id}.rotated`] = paths.length;
      let i = 0;
      return { method: 'GET', path: paths[0]!, headers: ctx.headers, vary: () => ({ path: paths[i++ % paths.length] }) };
    },
  };
}

/**
 * A POST that creates a new resource per request (answered 201), compared with koa-insert: `prepare`
 * runs once before the load and returns the body of the n-th request (n from 1).
 */
export function creating(id: string, label: string, path: string, prepare: (ctx: Context) => Promise<(n: number) => unknown>): Scenario {
  return {
    id,
    label,
    service: 'api',
    kind: 'api',
    baseline: 'baseline.koa-insert',
    expectStatus: 201,
    load: async (ctx) => {
      const bodyOf = await prepare(ctx);
      let n = 0;
      return {
        method: 'POST',
        path,
        headers: { ...ctx.headers, 'content-type': 'application/json' },
        vary: () => ({ body: JSON.stringify(bodyOf(++n)) }),
      };
    },
  };
}

/** A contact and a product of the demo company, created through the API once. */
export async function debtorAndProduct(ctx: Context): Promise<{ externalClientId: string; productId: string }> {
  if (ctx.debtor) return ctx.debtor;
  const externalClientId = `bench-debtor-${ctx.runTag}`;
  await apiCall(ctx, 'POST', '/contacts', { externalClientId, name: 'Bench Debtor', email: `debtor.${ctx.runTag}@example.com` });
  const product = await apiCall(ctx, 'POST', '/products', { name: `Bench product ${ctx.runTag}` });
  ctx.debtor = { externalClientId, productId: (product.data as { productId: string }).productId };
  return ctx.debtor;
}

export function dateInDays(days: number): string {
  return new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** A contact body per request with a unique externalClientId (and email), one MOBILE phone. */
export function uniqueContactBodies(prefix: string): () => { body: string } {
  let n = 0;
  return () => {
    n += 1;
    return {
      body: JSON.stringify({
        externalClientId: `${prefix}-${n}`,
        name: `Bench Contact ${n}`,
        email: `bench.${prefix}.${n}@example.com`,
        phones: [{ number: `+52 55 ${String(10_000_000 + n).slice(-8)}`, type: 'MOBILE', primary: true }],
      }),
    };
  };
}

export async function apiCall(ctx: Context, method: string, urlPath: string, body?: unknown): Promise<Record<string, unknown>> {
  const api = ctx.services.get('api')!;
  const response = await fetch(`http://127.0.0.1:${api.port}${urlPath}`, {
    method,
    headers: { ...ctx.headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${urlPath} → ${response.status} ${JSON.stringify(json)}`);
  return json;
}

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
