/**
 * Every property of the reliability suite counts what it tried and what went wrong, prints one
 * summary line, and only then fails with the first problems: the line is the run's record
 * (docs/reliability.md keeps the last run's lines).
 */
import { expect } from 'chai';

export class Tally {
  tried = 0;
  readonly failures: string[] = [];

  constructor(readonly property: string) {}

  /** Counts one request (or one checked unit) and records `problem` when there is one. */
  record(problem: string | null | undefined): void {
    this.tried++;
    if (problem) this.failures.push(problem);
  }

  /** Records a problem of the property as a whole (a database row count, a lost job). */
  fail(problem: string): void {
    this.failures.push(problem);
  }

  /** Prints `[reliability] <property>: <n> requests tried, <f> failures` and fails with the first ones. */
  report(unit = 'requests'): void {
    // eslint-disable-next-line no-console
    console.log(`      [reliability] ${this.property}: ${this.tried} ${unit} tried, ${this.failures.length} failures`);
    expect(this.failures, `${this.property}:\n${this.failures.slice(0, 10).join('\n')}`).to.deep.equal([]);
  }
}
