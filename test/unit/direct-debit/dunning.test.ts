import { expect } from 'chai';
import fc from 'fast-check';
import { magicAmountOutcome, SimulatedDirectDebitGateway } from '../../../adapters/gateways/simulated-direct-debit-gateway';
import { dueAttemptNumber, MAX_DEBIT_ATTEMPTS, retryDate } from '../../../internal/direct-debit/dunning';
import { addDaysToDate } from '../../../internal/shared/calendar-date';
import type { DebitRequest } from '../../../ports/direct-debit-gateway';

const DEBT = { dueDate: '2031-05-10', allowOverduePayment: true };

function request(amountCents: number, attemptNumber = 1, key = `k-${amountCents}-${attemptNumber}`): DebitRequest {
  return { idempotencyKey: key, paymentMethodId: 'pm_x', amountCents, currency: 'MXN', debtId: 'debt_x', attemptNumber };
}

describe('direct debit: dunning schedule (internal/direct-debit/dunning.ts)', () => {
  it('retries INSUFFICIENT_FUNDS 1, 2 and 4 days after each refusal (1, 3 and 7 after the first), then gives up', () => {
    expect(MAX_DEBIT_ATTEMPTS).to.equal(4);
    expect(retryDate({ attemptNumber: 1 }, 'INSUFFICIENT_FUNDS', '2031-05-10', DEBT)).to.equal('2031-05-11');
    expect(retryDate({ attemptNumber: 2 }, 'INSUFFICIENT_FUNDS', '2031-05-11', DEBT)).to.equal('2031-05-13');
    expect(retryDate({ attemptNumber: 3 }, 'INSUFFICIENT_FUNDS', '2031-05-13', DEBT)).to.equal('2031-05-17');
    expect(retryDate({ attemptNumber: 4 }, 'INSUFFICIENT_FUNDS', '2031-05-17', DEBT)).to.equal(null);
  });

  it('counts UTC calendar days across month and year ends', () => {
    expect(retryDate({ attemptNumber: 3 }, 'INSUFFICIENT_FUNDS', '2031-12-30', DEBT)).to.equal('2032-01-03');
    expect(retryDate({ attemptNumber: 1 }, 'INSUFFICIENT_FUNDS', '2032-02-28', DEBT)).to.equal('2032-02-29');
  });

  it('never retries ACCOUNT_CLOSED, the service\'s own failures, or a code it does not know', () => {
    for (const code of ['ACCOUNT_CLOSED', 'DEBT_NOT_PAYABLE', 'PAYMENT_METHOD_INACTIVE', 'MANDATE_REVOKED']) {
      expect(retryDate({ attemptNumber: 1 }, code, '2031-05-10', DEBT), code).to.equal(null);
    }
  });

  it('does not schedule a retry the debt could not take (past its due date without overdue payment)', () => {
    const strict = { dueDate: '2031-05-10', allowOverduePayment: false };
    expect(retryDate({ attemptNumber: 1 }, 'INSUFFICIENT_FUNDS', '2031-05-10', strict)).to.equal(null);
    // The rule is about the retry's date: one falling on or before the due date would be kept.
    expect(retryDate({ attemptNumber: 1 }, 'INSUFFICIENT_FUNDS', '2031-05-08', strict)).to.equal('2031-05-09');
  });

  it('makes attempt 1 when there is none, n+1 when the retry of n is due, and nothing otherwise', () => {
    expect(dueAttemptNumber(null, '2031-05-10')).to.equal(1);
    const refused = { attemptNumber: 2, status: 'FAILED' as const, retryOn: '2031-05-13' };
    expect(dueAttemptNumber(refused, '2031-05-12')).to.equal(null);
    expect(dueAttemptNumber(refused, '2031-05-13')).to.equal(3);
    expect(dueAttemptNumber(refused, '2031-05-20')).to.equal(3);
    expect(dueAttemptNumber({ ...refused, retryOn: null }, '2031-05-20')).to.equal(null);
    expect(dueAttemptNumber({ attemptNumber: 1, status: 'PENDING', retryOn: null }, '2031-05-20')).to.equal(null);
    expect(dueAttemptNumber({ attemptNumber: 1, status: 'SUCCEEDED', retryOn: null }, '2031-05-20')).to.equal(null);
  });

  it('never schedules more than the last attempt, and always a later day (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 20_000 }), (attemptNumber, offset) => {
        const refusedOn = addDaysToDate('2030-01-01', offset);
        const on = retryDate({ attemptNumber }, 'INSUFFICIENT_FUNDS', refusedOn, { dueDate: refusedOn, allowOverduePayment: true });
        if (attemptNumber >= MAX_DEBIT_ATTEMPTS) return on === null;
        return on !== null && on > refusedOn && dueAttemptNumber({ attemptNumber, status: 'FAILED', retryOn: on }, on) === attemptNumber + 1;
      }),
    );
  });
});

describe('direct debit: the simulated bank (adapters/gateways/simulated-direct-debit-gateway.ts)', () => {
  it('answers by magic amount: .13 insufficient funds, .14 insufficient funds on attempt 1 only, .15 account closed, else success', () => {
    expect(magicAmountOutcome(request(10_013))).to.equal('INSUFFICIENT_FUNDS');
    expect(magicAmountOutcome(request(10_013, 4))).to.equal('INSUFFICIENT_FUNDS');
    expect(magicAmountOutcome(request(10_014))).to.equal('INSUFFICIENT_FUNDS');
    expect(magicAmountOutcome(request(10_014, 2))).to.equal('SUCCEEDED');
    expect(magicAmountOutcome(request(15))).to.equal('ACCOUNT_CLOSED');
    expect(magicAmountOutcome(request(10_000))).to.equal('SUCCEEDED');
    expect(magicAmountOutcome(request(11_312))).to.equal('SUCCEEDED');
  });

  it('turns outcomes into results, by default from the magic amounts', async () => {
    const gateway = new SimulatedDirectDebitGateway();
    expect(await gateway.debit(request(10_000))).to.deep.equal({ status: 'SUCCEEDED' });
    expect(await gateway.debit(request(10_013))).to.deep.equal({ status: 'FAILED', failureCode: 'INSUFFICIENT_FUNDS' });
    expect(await gateway.debit(request(10_015))).to.deep.equal({ status: 'FAILED', failureCode: 'ACCOUNT_CLOSED' });
  });

  it('takes the outcome from the option given at construction, and answers a repeated key as the first time', async () => {
    const script = ['INSUFFICIENT_FUNDS', 'ACCOUNT_CLOSED', 'SUCCEEDED'];
    const seen: DebitRequest[] = [];
    const gateway = new SimulatedDirectDebitGateway({ outcome: (r) => (seen.push(r), script.shift() ?? 'SUCCEEDED') });
    expect(await gateway.debit(request(100, 1, 'a'))).to.deep.equal({ status: 'FAILED', failureCode: 'INSUFFICIENT_FUNDS' });
    expect(await gateway.debit(request(100, 1, 'a'))).to.deep.equal({ status: 'FAILED', failureCode: 'INSUFFICIENT_FUNDS' });
    expect(await gateway.debit(request(100, 2, 'b'))).to.deep.equal({ status: 'FAILED', failureCode: 'ACCOUNT_CLOSED' });
    expect(await gateway.debit(request(100, 3, 'c'))).to.deep.equal({ status: 'SUCCEEDED' });
    expect(seen.map((r) => r.idempotencyKey)).to.deep.equal(['a', 'b', 'c']);
  });
});
