export interface Organization {
  id: number;
  name: string;
  /** Set by the sandbox clock helper: every time rule of the organization uses this instant. */
  frozenNow: Date | null;
  createdAt: Date;
}
