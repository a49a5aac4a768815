import type { Clock } from '../../ports/clock';
import type { JobQueue } from '../../ports/job-queue';
import type { Repositories } from '../../ports/unit-of-work';
import type { Contact } from '../contacts/contact';
import type { Product } from '../products/product';
import type { TenantScope } from '../shared/tenant-scope';
import type { Subscription } from '../subscriptions/subscription';
import { adhesionRequestJob, emitAdhesionRequests, productGroup } from './adhesion-requests';
import { autopayAfterEmission, type AutopayVerdict, autopayBeforeMethods, autopayFromDefault } from './autopay';
import { needsDefaultMethod } from './autopay-verdicts';

export interface CycleAutopay {
  /** Null when the subscription does not ask for autopay (its debts are not evaluated). */
  verdict: AutopayVerdict | null;
  /** The adhesion request written to the outbox for an eligible generation. */
  jobId: string | null;
}

/**
 * Direct debit for the debts one generation writes (a subscription with autopay): the user and
 * product are evaluated once, and one adhesion request is written to the outbox before the debts,
 * under a jobId fixed by the generation, so a retried generation writes it once.
 */
export async function prepareCycleAutopay(
  repos: Repositories,
  subscription: Pick<Subscription, 'autopay' | 'code'>,
  resume: number,
  scope: TenantScope,
  contact: Contact,
  product: Product,
): Promise<CycleAutopay> {
  if (!subscription.autopay) return { verdict: null, jobId: null };
  const early = autopayBeforeMethods(scope.company, product);
  const verdict = early ?? autopayFromDefault(await repos.paymentMethods.findDefault(scope.company.id, contact.externalClientId));
  if (!('eligible' in verdict)) return { verdict, jobId: null };
  const jobId = `adh-sub-${subscription.code}-${resume}`;
  const request = { companyId: scope.company.id, externalClientId: contact.externalClientId, productId: product.id, paymentMethodId: verdict.eligible.id };
  await repos.outbox.add(adhesionRequestJob(request, jobId), scope.clock.now(), { group: productGroup(product.id) });
  return { verdict, jobId };
}

/**
 * After the debts are written: emits the product's adhesion requests; when this generation's
 * cannot go out, its debts (named by `externalRequestIds`) answer ADHESION_EVENT_FAILED.
 */
export async function emitCycleAutopay(
  deps: { repos: Repositories; queue: JobQueue; clock: Clock },
  prepared: CycleAutopay,
  product: Product,
  externalRequestIds: string[],
  scope: TenantScope,
): Promise<void> {
  if (prepared.verdict === null || !needsDefaultMethod(scope.company, true)) return;
  const own = prepared.jobId ? [prepared.jobId] : [];
  const emitted = await emitAdhesionRequests({ ...deps, outbox: deps.repos.outbox }, product.id, own).catch(() => new Set<string>());
  if (prepared.jobId === null) return;
  const outcome = autopayAfterEmission(prepared.verdict, emitted.has(prepared.jobId));
  if (outcome.autopay) return;
  const ids: number[] = [];
  for (let i = 0; i < externalRequestIds.length; i += 500) {
    const debts = await deps.repos.debts.findByExternalRequestIds(scope.company.id, externalRequestIds.slice(i, i + 500));
    ids.push(...debts.filter((d) => d.autopay).map((d) => d.id));
  }
  await deps.repos.debts.withdrawAutopay(scope.company.id, ids, outcome.reason, scope.clock.now());
}
