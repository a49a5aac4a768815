import { LIST_CONNECTIONS, seeded } from './debt-lists';
import { apiCall, uniqueContactBodies } from './support';
import type { Scenario } from './types';

/** POST /contacts, GET /contacts, GET /contacts/{id}, and the name search on the seeded contacts. */

export const contactsCreate: Scenario = {
  id: 'contacts.create',
  label: 'POST /contacts',
  service: 'api',
  kind: 'api',
  baseline: 'baseline.koa-insert',
  load: async (ctx) => ({
    method: 'POST',
    path: '/contacts',
    headers: { ...ctx.headers, 'content-type': 'application/json' },
    vary: uniqueContactBodies(`${ctx.runTag}-api`),
  }),
};

export const contactsList: Scenario = {
  id: 'contacts.list',
  label: 'GET /contacts',
  service: 'api',
  kind: 'api',
  baseline: 'baseline.koa-json',
  // The page of the contacts POST /contacts created (alone, the organization has none: an empty page).
  needs: ['contacts.create'],
  load: async (ctx) => {
    await ctx.db.analyze(['contacts']);
    const first = await apiCall(ctx, 'GET', '/contacts');
    ctx.dataset.contactsBeforeList = (first.meta as { total: number }).total;
    if (ctx.dataset.contactsBeforeList === 0) throw new Error('GET /contacts returned no contact: the page would be timed empty');
    return { method: 'GET', path: '/contacts', headers: ctx.headers };
  },
};

export const contactsGet: Scenario = {
  id: 'contacts.get',
  label: 'GET /contacts/{id}',
  service: 'api',
  kind: 'api',
  baseline: 'baseline.koa-json',
  needs: ['contacts.create'],
  load: async (ctx) => {
    const page = await apiCall(ctx, 'GET', '/contacts?limit=500');
    const paths = (page.data as { contactId: string }[]).map((c) => `/contacts/${c.contactId}`);
    if (paths.length === 0) throw new Error('GET /contacts returned no contact to read back');
    ctx.dataset.idsRotated = paths.length;
    let i = 0;
    return { method: 'GET', path: paths[0]!, headers: ctx.headers, vary: () => ({ path: paths[i++ % paths.length] }) };
  },
};

export const contactsSearch: Scenario = {
  id: 'contacts.search',
  label: 'GET /contacts?name (seeded)',
  service: 'api',
  kind: 'api',
  baseline: 'baseline.koa-json',
  connections: LIST_CONNECTIONS,
  expectStatus: 200,
  load: async (ctx) => {
    await seeded(ctx);
    // A substring of the seeded names ("Seed Contact 0-<n>"): 11 of the demo organization's contacts.
    // The search reads every contact of the organization: say how many there are.
    ctx.dataset['contacts.search.scanned'] = ((await apiCall(ctx, 'GET', '/contacts?limit=1')).meta as { total: number }).total;
    const path = '/contacts?name=contact%200-72';
    const first = await apiCall(ctx, 'GET', path);
    ctx.dataset['contacts.search.total'] = (first.meta as { total: number }).total;
    return { method: 'GET', path, headers: ctx.headers };
  },
};
