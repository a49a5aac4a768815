import { emitAdhesionRequests } from '../direct-debit/adhesion-requests';
import { autopayAfterEmission } from '../direct-debit/autopay';
import { needsDefaultMethod } from '../direct-debit/autopay-verdicts';
import { pairKey, type Resolution } from './debt-write-resolution';
import type { WrittenDebts } from './debt-write-transaction';
import type { WriteDeps } from './debt-write';
import { withdrawnAutopay } from './withdrawn-autopay';

/**
 * After the commit: emits each product's adhesion requests; the debts whose request could not
 * go out answer, and keep, ADHESION_EVENT_FAILED.
 */
export async function emitAdhesions(deps: WriteDeps, written: WrittenDebts, resolution: Resolution): Promise<WrittenDebts> {
  const scope = resolution.viable[0]?.scope;
  if (!scope || !needsDefaultMethod(scope.company, true)) return written;
  const { requests } = resolution;
  const productIds = new Set([...resolution.productOfItem.values()].flatMap((p) => (p ? [p.id] : [])));
  const failed = new Set<string>();
  for (const productId of productIds) {
    const own = [...requests.values()].filter((r) => r.productId === productId).map((r) => r.jobId);
    const emitted = await emitAdhesionRequests({ ...deps, outbox: deps.repos.outbox }, productId, own).catch(() => new Set<string>());
    for (const [key, request] of requests) if (request.productId === productId && !emitted.has(request.jobId)) failed.add(key);
  }
  // Step 6 of the evaluation: the debts written with autopay true keep it only if their
  // adhesion request went out.
  const verdictOf = new Map(resolution.viable.map((item, index) => [item.externalRequestId, resolution.verdicts[index]]));
  const withdrawn = [...written.values()].flatMap(({ debt, created }) => {
    const verdict = verdictOf.get(debt.externalRequestId);
    if (!created || !debt.autopay || !verdict || !debt.contact || debt.productId === null) return [];
    const outcome = autopayAfterEmission(verdict, !failed.has(pairKey(debt.contact.externalClientId, debt.productId)));
    return outcome.autopay ? [] : [{ debt, reason: outcome.reason }];
  });
  if (withdrawn.length === 0) return written;
  // One reason for them all: ADHESION_EVENT_FAILED is the only way step 6 says no.
  await deps.repos.debts.withdrawAutopay(scope.company.id, withdrawn.map((o) => o.debt.id), withdrawn[0]!.reason, scope.clock.now());
  for (const { debt } of withdrawn) written.set(debt.externalRequestId, { debt: withdrawnAutopay(debt), created: true });
  return written;
}
