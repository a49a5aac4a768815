import type { Clock } from '../../../ports/clock';
import type { DebtView } from '../../../ports/debt-repository';
import type { DirectDebitGateway } from '../../../ports/direct-debit-gateway';
import type { IdGenerator } from '../../../ports/id-generator';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { applyDebtPayment, assertPaymentOrder } from '../../debts/apply-debt-payment';
import { applyPayment, debtIdOf, remainingCents } from '../../debts/debt';
import { eventOf } from '../../events/domain-event';
import { utcDateOf } from '../../shared/calendar-date';
import { DomainError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { Organization } from '../../tenancy/organization';
import { organizationClock } from '../../tenancy/organization-clock';
import { companiesById, workerScope } from '../../tenancy/worker-scope';
import { type DebitAttempt, DEBIT_ATTEMPT_CODE_LENGTH, debitAttemptIdOf } from '../debit-attempt';
import { type DebitFailureCode, dueAttemptNumber, METHOD_ENDING_FAILURES, retryDate } from '../dunning';
import { paymentMethodIdOf, type PaymentMethodReference } from '../payment-method';

/** Debts collected per organization per run; the next run takes the rest. */
const RUN_LIMIT = 200;
/** An attempt PENDING this long (on its organization's clock) lost its worker mid-call: it is completed again, with its key. */
export const STALE_ATTEMPT_MS = 2 * 60 * 1000;

export interface DebitRun {
  attempted: number;
  succeeded: number;
  failed: number;
}

type Deps = { uow: UnitOfWork; repos: Repositories; directDebit: DirectDebitGateway; clock: Clock; ids: IdGenerator };
type Outcome = 'SUCCEEDED' | 'FAILED' | 'PENDING' | 'DONE';

/**
 * Worker job: collects autopay debts that are due (on their organization's clock) while their
 * user's adhesion to the product is ACTIVE, with the debt's instrument: attempt 1 on the due
 * date, and the retries of the dunning schedule (dunning.ts) after a retryable refusal. Each
 * attempt is written PENDING, with its number, before the gateway is called with its own
 * idempotency key, and completed afterwards; a payment the debt can no longer take is refunded.
 * A worker that dies in between leaves the attempt PENDING: a later run completes it with the
 * same key, so nothing is charged twice and nothing is lost.
 */
export class ExecuteDueDebits {
  constructor(private readonly deps: Deps) {
    requireDeps('ExecuteDueDebits', deps);
  }

  /** Every organization, or only one user's debts of one product (right after their adhesion). */
  async execute(only?: { companyId: number; externalClientId: string; productId: number }): Promise<DebitRun> {
    const run: DebitRun = { attempted: 0, succeeded: 0, failed: 0 };
    const { tenancy } = this.deps.repos;
    const organizations = only
      ? [await tenancy.findOrganization((await tenancy.findCompany(only.companyId))?.organizationId ?? 0)].flatMap((o) => (o ? [o] : []))
      : await tenancy.listOrganizations();
    for (const organization of organizations) {
      await this.recoverStale(organization, run);
      const today = utcDateOf(organizationClock(this.deps.clock, organization).now());
      const due = await this.deps.repos.debts.dueForDebit({ organizationId: organization.id, today, only }, RUN_LIMIT);
      const companies = await companiesById(tenancy, due.map((d) => d.companyId));
      for (const debt of due) await this.collect(debt, workerScope(organization, companies.get(debt.companyId)!, this.deps.clock), run);
    }
    return run;
  }

  private async collect(debt: DebtView, scope: TenantScope, run: DebitRun): Promise<void> {
    const started = await this.start(debt, scope);
    if (started === 'FAILED') run.failed++;
    if (started === null || started === 'FAILED') return;
    run.attempted++;
    count(run, await this.complete(started.attempt, started.method, scope).catch((): Outcome => 'PENDING'));
  }

  /**
   * Under the debt's lock: the attempt it is due for, written PENDING with its
   * direct_debit.attempted event; 'FAILED' when that attempt fails at once without the platform
   * (an INACTIVE instrument, a debt that cannot take the payment); null when nothing is due.
   */
  private start(debt: DebtView, scope: TenantScope): Promise<{ attempt: DebitAttempt; method: PaymentMethodReference } | 'FAILED' | null> {
    return this.deps.uow.run(async (tx) => {
      const locked = await tx.debts.lockByExternalRequestId(scope.company.id, debt.externalRequestId);
      const now = scope.clock.now();
      const today = utcDateOf(now);
      if (!locked?.autopay || locked.autopayPaymentMethodId === null || locked.dueDate > today) return null;
      if (locked.status === 'PAID' || locked.status === 'CANCELLED') return null;
      const latest = (await tx.debitAttempts.listByDebt(locked.id)).at(-1) ?? null;
      const attemptNumber = dueAttemptNumber(latest, today);
      const method = await tx.paymentMethods.findById(scope.company.id, locked.autopayPaymentMethodId);
      if (attemptNumber === null || !method) return null;
      if (latest) await tx.debitAttempts.clearRetry(latest.id);
      const attempt = await tx.debitAttempts.insert({
        organizationId: scope.organizationId,
        companyId: scope.company.id,
        code: this.deps.ids.alphanumeric(DEBIT_ATTEMPT_CODE_LENGTH),
        debtId: locked.id,
        attemptNumber,
        paymentMethodId: method.id,
        amountCents: remainingCents(locked),
        status: 'PENDING',
        failureCode: null,
        retryOn: null,
        createdAt: now,
        completedAt: null,
      });
      const blocked: DebitFailureCode | null =
        method.status !== 'ACTIVE' ? 'PAYMENT_METHOD_INACTIVE' : (await isPayable(tx, locked, attempt.amountCents, today)) ? null : 'DEBT_NOT_PAYABLE';
      if (blocked) {
        // Not sent to the platform, and final: nothing could make this debit succeed later.
        const failed = await tx.debitAttempts.complete(attempt.id, 'FAILED', blocked, now);
        await tx.events.append([eventOf(scope, 'direct_debit.failed', { kind: 'direct_debit', attempt: failed, debt: locked, paymentMethod: method }, now)]);
        return 'FAILED';
      }
      await tx.events.append([eventOf(scope, 'direct_debit.attempted', { kind: 'direct_debit', attempt, debt: locked, paymentMethod: method }, now)]);
      return { attempt, method };
    });
  }

  /** Calls the gateway (again, with the same key, for a recovered attempt) and records the outcome. */
  private async complete(attempt: DebitAttempt, method: PaymentMethodReference, scope: TenantScope): Promise<Outcome> {
    const debt = await this.deps.repos.debts.findById(scope.company.id, attempt.debtId);
    if (!debt) throw new Error(`debit attempt ${attempt.code} lost its debt`);
    const key = debitAttemptIdOf(attempt);
    const result = await this.deps.directDebit.debit({
      idempotencyKey: key,
      paymentMethodId: paymentMethodIdOf(method),
      amountCents: attempt.amountCents,
      currency: debt.currency,
      debtId: debtIdOf(debt),
      attemptNumber: attempt.attemptNumber,
    });
    const current = (tx: Repositories) => tx.debts.findById(scope.company.id, debt.id).then((d) => d!);
    if (result.status === 'FAILED') return this.finish(attempt, method, scope, current, 'FAILED', result.failureCode);
    try {
      return await this.finish(attempt, method, scope, (tx) => applyDebtPayment(tx, debtIdOf(debt), attempt.amountCents, 'direct-debit', scope), 'SUCCEEDED', null);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // Paid or cancelled meanwhile: the money goes back before the attempt is closed (final).
      await this.deps.directDebit.refund({ idempotencyKey: key, amountCents: attempt.amountCents, currency: debt.currency });
      return this.finish(attempt, method, scope, current, 'FAILED', 'DEBT_NOT_PAYABLE' satisfies DebitFailureCode);
    }
  }

  /**
   * Closes a still-PENDING attempt with its event, together with `work` (the payment, when it
   * succeeded). A refusal schedules the retry its code and number allow; ACCOUNT_CLOSED also
   * ends the payment method.
   */
  private finish(
    attempt: DebitAttempt,
    method: PaymentMethodReference,
    scope: TenantScope,
    work: (tx: Repositories) => Promise<DebtView>,
    status: 'SUCCEEDED' | 'FAILED',
    failureCode: string | null,
  ): Promise<Outcome> {
    return this.deps.uow.run(async (tx) => {
      if (!(await tx.debitAttempts.lockPending(attempt.id))) return 'DONE';
      const debt = await work(tx);
      const now = scope.clock.now();
      const retryOn = failureCode === null ? null : retryDate(attempt, failureCode, utcDateOf(now), debt);
      const completed = await tx.debitAttempts.complete(attempt.id, status, failureCode, now, retryOn);
      const instrument = failureCode !== null && METHOD_ENDING_FAILURES.includes(failureCode) ? await tx.paymentMethods.deactivate(scope.company.id, method.id) : method;
      const type = status === 'SUCCEEDED' ? 'direct_debit.succeeded' : 'direct_debit.failed';
      await tx.events.append([eventOf(scope, type, { kind: 'direct_debit', attempt: completed, debt, paymentMethod: instrument }, now)]);
      return status;
    });
  }

  /** Completes the organization's attempts whose worker died mid-call, with their own keys. */
  private async recoverStale(organization: Organization, run: DebitRun): Promise<void> {
    const { repos, clock } = this.deps;
    const before = new Date(organizationClock(clock, organization).now().getTime() - STALE_ATTEMPT_MS);
    const stale = await repos.debitAttempts.stalePending(organization.id, before, RUN_LIMIT);
    const companies = await companiesById(repos.tenancy, stale.map((a) => a.companyId));
    for (const attempt of stale) {
      const company = companies.get(attempt.companyId);
      const method = company && (await repos.paymentMethods.findById(company.id, attempt.paymentMethodId));
      if (!company || !method) continue;
      count(run, await this.complete(attempt, method, workerScope(organization, company, clock)).catch((): Outcome => 'PENDING'));
    }
  }
}

function count(run: DebitRun, outcome: Outcome): void {
  if (outcome === 'SUCCEEDED') run.succeeded++;
  if (outcome === 'FAILED') run.failed++;
}

/** Whether the debt can take this payment now (state table, and a subscription's payment order), checked before charging anything. */
async function isPayable(tx: Repositories, debt: DebtView, amountCents: number, today: string): Promise<boolean> {
  try {
    applyPayment(debt, amountCents, today);
    if (debt.subscriptionId) await assertPaymentOrder(tx.subscriptions, tx.debts, debt);
    return true;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}
