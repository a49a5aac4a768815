/** The time source. The per-organization frozen clock of the test helpers is also a Clock. */
export interface Clock {
  now(): Date;
}
