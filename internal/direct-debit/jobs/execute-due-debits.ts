import type { Clock } from '../../../ports/clock';
import type { DebtView } from '../../../ports/debt-repository';
import type { DirectDebitGateway } from '../../../ports/direct-debit-gateway';
import type { IdGenerator } from '../../../ports/id-generator';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { applyDebtPayment } from '../../debts/apply-debt-payment';
import { applyPayment, debtIdOf, remainingCents } from '../../debts/debt';
import { eventOf } from '../../events/domain-event';
import { utcDateOf } from '../../shared/calendar-date';
import { DomainError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { organizationClock } from '../../tenancy/organization-clock';
import { companiesById, loadWorkerScope, workerScope } from '../../tenancy/worker-scope';
import { type DebitAttempt, DEBIT_ATTEMPT_CODE_LENGTH, debitAttemptIdOf } from '../debit-attempt';
import { paymentMethodIdOf, type PaymentMethodReference } from '../payment-method';

/** Debts collected per organization per run; the next run takes the rest. */
const RUN_LIMIT = 200;
/** An attempt PENDING this long lost its worker mid-call: it is completed again, with its key. */
export const STALE_ATTEMPT_MS = 2 * 60 * 1000;

export interface DebitRun {
  attempted: number;
  succeeded: number;
  failed: number;
}

type Deps = { uow: UnitOfWork; repos: Repositories; directDebit: DirectDebitGateway; clock: Clock; ids: IdGenerator };

/**
 * Worker job: collects autopay debts that are due (on their organization's clock) while their
 * user's adhesion to the product is ACTIVE, one attempt per debt, with the debt's instrument.
 * The attempt is written PENDING before the gateway is called with its idempotency key, and
 * completed afterwards; a payment the debt can no longer take is refunded. A worker that dies
 * in between leaves the attempt PENDING: the next run completes it with the same key, so nothing
 * is charged twice and nothing is lost. A refused debit is not retried: the debt stays payable
 * through its paymentUrl.
 */
export class ExecuteDueDebits {
  constructor(private readonly deps: Deps) {
    requireDeps('ExecuteDueDebits', deps);
  }

  /** Every organization, or only one user's debts of one product (right after their adhesion). */
  async execute(only?: { companyId: number; externalClientId: string; productId: number }): Promise<DebitRun> {
    const run: DebitRun = { attempted: 0, succeeded: 0, failed: 0 };
    await this.recoverStale(run);
    const { tenancy, debts } = this.deps.repos;
    const organizations = only
      ? [await tenancy.findOrganization((await tenancy.findCompany(only.companyId))?.organizationId ?? 0)].flatMap((o) => (o ? [o] : []))
      : await tenancy.listOrganizations();
    for (const organization of organizations) {
      const today = utcDateOf(organizationClock(this.deps.clock, organization).now());
      const due = await debts.dueForDebit({ organizationId: organization.id, today, only }, RUN_LIMIT);
      const companies = await companiesById(tenancy, due.map((d) => d.companyId));
      for (const debt of due) await this.collect(debt, workerScope(organization, companies.get(debt.companyId)!, this.deps.clock), run);
    }
    return run;
  }

  private async collect(debt: DebtView, scope: TenantScope, run: DebitRun): Promise<void> {
    const started = await this.start(debt, scope);
    if (!started) return;
    run.attempted++;
    const outcome = await this.complete(started.attempt, started.method, scope).catch(() => 'PENDING' as const);
    if (outcome === 'SUCCEEDED') run.succeeded++;
    if (outcome === 'FAILED') run.failed++;
  }

  /** The PENDING attempt and its direct_debit.attempted event; null when the debt no longer qualifies. */
  private start(debt: DebtView, scope: TenantScope): Promise<{ attempt: DebitAttempt; method: PaymentMethodReference } | null> {
    return this.deps.uow.run(async (tx) => {
      const locked = await tx.debts.lockByExternalRequestId(scope.company.id, debt.externalRequestId);
      if (!locked?.autopay || locked.autopayPaymentMethodId === null || (await tx.debitAttempts.findByDebt(locked.id))) return null;
      const method = await tx.paymentMethods.findById(scope.company.id, locked.autopayPaymentMethodId);
      if (!method) return null;
      const now = scope.clock.now();
      const attempt = await tx.debitAttempts.insert({
        organizationId: scope.organizationId,
        companyId: scope.company.id,
        code: this.deps.ids.alphanumeric(DEBIT_ATTEMPT_CODE_LENGTH),
        debtId: locked.id,
        paymentMethodId: method.id,
        amountCents: remainingCents(locked),
        status: 'PENDING',
        failureCode: null,
        createdAt: now,
        completedAt: null,
      });
      if (!isPayable(locked, attempt.amountCents, now)) {
        // Nothing to charge (overdue without allowOverduePayment, and the like): it fails at once.
        const failed = await tx.debitAttempts.complete(attempt.id, 'FAILED', 'DEBT_NOT_PAYABLE', now);
        await tx.events.append([eventOf(scope, 'direct_debit.failed', { kind: 'direct_debit', attempt: failed, debt: locked, paymentMethod: method }, now)]);
        return null;
      }
      await tx.events.append([eventOf(scope, 'direct_debit.attempted', { kind: 'direct_debit', attempt, debt: locked, paymentMethod: method }, now)]);
      return { attempt, method };
    });
  }

  /** Calls the gateway (again, with the same key, for a recovered attempt) and records the outcome. */
  private async complete(attempt: DebitAttempt, method: PaymentMethodReference, scope: TenantScope): Promise<'SUCCEEDED' | 'FAILED' | 'DONE'> {
    const debt = await this.deps.repos.debts.findById(scope.company.id, attempt.debtId);
    if (!debt) throw new Error(`debit attempt ${attempt.code} lost its debt`);
    const key = debitAttemptIdOf(attempt);
    const result = await this.deps.directDebit.debit({ idempotencyKey: key, paymentMethodId: paymentMethodIdOf(method), amountCents: attempt.amountCents, currency: debt.currency });
    if (result.status === 'SUCCEEDED') {
      try {
        return await this.finish(attempt, method, scope, (tx) => applyDebtPayment(tx, debtIdOf(debt), attempt.amountCents, 'direct-debit', scope), 'SUCCEEDED', null);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        // Paid or cancelled meanwhile: the money goes back before the attempt is closed.
        await this.deps.directDebit.refund({ idempotencyKey: key, amountCents: attempt.amountCents, currency: debt.currency });
        return this.finish(attempt, method, scope, (tx) => tx.debts.findById(scope.company.id, debt.id).then((d) => d!), 'FAILED', 'DEBT_NOT_PAYABLE');
      }
    }
    return this.finish(attempt, method, scope, (tx) => tx.debts.findById(scope.company.id, debt.id).then((d) => d!), 'FAILED', result.failureCode);
  }

  /** Closes a still-PENDING attempt with its event, together with `work` (the payment, when it succeeded). */
  private finish(
    attempt: DebitAttempt,
    method: PaymentMethodReference,
    scope: TenantScope,
    work: (tx: Repositories) => Promise<DebtView>,
    status: 'SUCCEEDED' | 'FAILED',
    failureCode: string | null,
  ): Promise<'SUCCEEDED' | 'FAILED' | 'DONE'> {
    return this.deps.uow.run(async (tx) => {
      if (!(await tx.debitAttempts.lockPending(attempt.id))) return 'DONE';
      const debt = await work(tx);
      const now = scope.clock.now();
      const completed = await tx.debitAttempts.complete(attempt.id, status, failureCode, now);
      const type = status === 'SUCCEEDED' ? 'direct_debit.succeeded' : 'direct_debit.failed';
      await tx.events.append([eventOf(scope, type, { kind: 'direct_debit', attempt: completed, debt, paymentMethod: method }, now)]);
      return status;
    });
  }

  private async recoverStale(run: DebitRun): Promise<void> {
    const { repos, clock } = this.deps;
    for (const attempt of await repos.debitAttempts.stalePending(new Date(clock.now().getTime() - STALE_ATTEMPT_MS), RUN_LIMIT)) {
      const scope = await loadWorkerScope(repos.tenancy, clock, attempt.companyId);
      const method = scope && (await repos.paymentMethods.findById(attempt.companyId, attempt.paymentMethodId));
      if (!scope || !method) continue;
      const outcome = await this.complete(attempt, method, scope).catch(() => 'PENDING' as const);
      if (outcome === 'SUCCEEDED') run.succeeded++;
      if (outcome === 'FAILED') run.failed++;
    }
  }
}

function isPayable(debt: DebtView, amountCents: number, now: Date): boolean {
  try {
    applyPayment(debt, amountCents, utcDateOf(now));
    return true;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}
