import { BusinessRuleViolationError } from '../shared/errors';

/** The processor refused the charge (a 422 if it ever reached the API; a page says why). */
export class PaymentDeclinedError extends BusinessRuleViolationError {
  constructor(readonly reason: string) {
    super(`The payment was declined (${reason})`);
  }
}

/** A page showed a state in which nothing can be paid: the reason says which. */
export class NotPayableError extends BusinessRuleViolationError {
  constructor(readonly reason: string) {
    super(`This charge cannot be paid now (${reason})`);
  }
}
