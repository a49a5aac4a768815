import { baselineKoaDebts, baselineKoaInsert, baselineKoaJson, baselineKoaLinks, baselineKoaSelect, baselineKoaSubscriptions, withListFloors } from './baselines';
import { contactsCreate, contactsGet, contactsList, contactsSearch } from './contacts';
import { debtListScenarios } from './debt-lists';
import { debtsBatch, debtsCreate, debtsGet, debtsLegacyCreate, debtsRefused } from './debts';
import { adhesionsCreate, paymentMethodsCreate } from './direct-debit';
import { eventsList } from './events';
import { linkListScenarios, linksCreate, linksGet } from './payment-links';
import { productsCreate, productsGet } from './products';
import { subscriptionListScenarios, subscriptionsCreate, subscriptionsGet } from './subscriptions';
import type { Scenario } from './types';

/**
 * Every scenario of `npm run bench`, in the order they run: the baselines first (the ratios need
 * them), then each resource. A scenario may use what an earlier one left (GET by id reads back
 * what the POST created; the creates after the debt lists run on the seeded table). Each list of
 * issue 19 runs right after its floor (withListFloors).
 */
export const SCENARIOS: Scenario[] = withListFloors([
  baselineKoaJson,
  baselineKoaInsert,
  baselineKoaSelect,
  productsCreate,
  productsGet,
  // GET /debts on the seeded table (the first of these seeds it), then the creates on it.
  ...debtListScenarios(),
  // The name search before POST /contacts: it scans the demo organization's seeded contacts (issue
  // 9's data), not as many more as POST /contacts managed to create on this machine.
  contactsSearch,
  contactsCreate,
  contactsList,
  contactsGet,
  // The floor of a single debt create, right before POST /v2/debts.
  baselineKoaDebts,
  debtsCreate,
  debtsRefused,
  debtsBatch,
  debtsLegacyCreate,
  debtsGet,
  // The floor of a payment link create, right before POST /payment-links.
  baselineKoaLinks,
  linksCreate,
  linksGet,
  ...linkListScenarios(),
  // The floor of a subscription create, right before POST /subscriptions.
  baselineKoaSubscriptions,
  subscriptionsCreate,
  subscriptionsGet,
  ...subscriptionListScenarios(),
  adhesionsCreate,
  paymentMethodsCreate,
  // Last: by now the demo company's events include one per create above.
  eventsList,
]);
