import type { Locale } from './locale';
import type { Messages } from './messages';

/** What every page renders with: its locale, its texts, and the links a payment page needs. */
export interface RenderContext {
  locale: Locale;
  t: Messages;
  /** The page of a payment instruction (a path), for the pending ones a payment page lists. */
  instructionHref?: (paymentInstructionId: string) => string;
}
