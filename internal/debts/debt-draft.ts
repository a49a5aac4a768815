import type { PhoneInput } from '../contacts/contact';
import type { Currency } from '../shared/currency';
import type { PaymentMethod } from './debt';

export interface ContactData {
  externalClientId: string;
  name: string;
  email: string;
  phones?: PhoneInput[];
}

/** Who owes: an existing contact by reference, or inline data that creates or updates one. */
export type DebtorRef = { externalClientId: string } | { contactData: ContactData };

/** Which product: by id, by the company's own id, or (legacy) by name, created when absent. */
export type ProductRef = { productNumber: number } | { externalProductId: string } | { productName: string } | null;

/** A debt request after the edge validated its shape; amounts already in cents. */
export interface DebtDraft {
  debtor: DebtorRef;
  product: ProductRef;
  amountCents: number;
  dueDate: string;
  currency?: Currency;
  description?: string;
  allowPartialPayments?: boolean;
  allowOverduePayment?: boolean;
  additionalData?: Record<string, unknown>;
  /** Legacy contract only. */
  paymentMethods?: PaymentMethod[];
  /** Legacy contract: evaluate direct debit only when asked; v2 always evaluates. */
  evaluateAutopay: boolean;
}
