import type { RateLimitPolicy } from './rate-limit';

export interface Organization {
  id: number;
  name: string;
  /** Set by the sandbox clock helper: every time rule of the organization uses this instant. */
  frozenNow: Date | null;
  /** The operator's rate limit for the organization's API keys; null: the server's defaults. */
  rateLimit: RateLimitPolicy | null;
  createdAt: Date;
}
