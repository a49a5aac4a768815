import type { Currency } from '../shared/currency';

/**
 * A provider's word that money arrived, kept once per (provider, transactionId): the same
 * notification delivered again (a retry, a replay, two deliveries racing) finds it and records
 * nothing more. `outcome` says where the money went.
 */
export const NOTIFICATION_OUTCOMES = ['APPLIED', 'PARTIALLY_APPLIED', 'UNAPPLIED', 'UNMATCHED'] as const;
export type NotificationOutcome = (typeof NOTIFICATION_OUTCOMES)[number];

export interface ProviderNotification {
  id: number;
  provider: string;
  transactionId: string;
  /** The instruction the provider names (its account or barcode). */
  providerReference: string;
  amountCents: number;
  currency: Currency;
  /** When the provider says the money arrived. */
  receivedAt: Date;
  /** When this service recorded it (wall clock). */
  recordedAt: Date;
  /** Set once matched to an instruction; null for money no instruction of ours names. */
  organizationId: number | null;
  companyId: number | null;
  paymentInstructionId: number | null;
  outcome: NotificationOutcome;
  appliedCents: number;
  unappliedCents: number;
}

/** The outcome of a notification by how its amount split. */
export function outcomeOf(appliedCents: number, unappliedCents: number): NotificationOutcome {
  if (unappliedCents === 0) return 'APPLIED';
  return appliedCents > 0 ? 'PARTIALLY_APPLIED' : 'UNAPPLIED';
}
