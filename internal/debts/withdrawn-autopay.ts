import type { DebtView } from '../../ports/debt-repository';

/** A debt whose adhesion request could not be emitted, as it now reads. */
export function withdrawnAutopay(debt: DebtView): DebtView {
  return { ...debt, autopay: false, autopayReason: 'ADHESION_EVENT_FAILED', autopayPaymentMethodId: null, autopayInstrument: null };
}
