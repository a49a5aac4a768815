import { performance } from 'node:perf_hooks';
import type { JobPace } from '../../ports/job-pace';

/** BACKGROUND_JOB_DUTY_CYCLE's default: a backlog job works half the time it runs. */
export const DEFAULT_DUTY_CYCLE = 0.5;

export interface DutyCyclePaceOptions {
  /** Waits this long (real time); tests pass a recorder. The default wait ends early on `stop`. */
  sleep?: (ms: number) => Promise<void>;
  /** Monotonic milliseconds (real time, never the sandbox clock). */
  elapsedMs?: () => number;
}

/**
 * Keeps a backlog job busy `dutyCycle` of the time it runs: before each chunk but the first it
 * waits the previous chunk's duration × (1 − dutyCycle) / dutyCycle (0.5: as long as the chunk
 * took; 1: never). The pause follows the chunk's own time, so it grows when the database is busy
 * (a slower chunk) and stays short when it is idle, and a job with less than one chunk to do
 * runs exactly as before. Time here is the machine's, not an organization's sandbox clock.
 */
export class DutyCyclePace implements JobPace {
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly elapsedMs: () => number;
  private stopping = false;
  /** The pauses under way, each woken by `stop` (and gone once over: a long-lived worker keeps none). */
  private readonly pauses = new Set<() => void>();

  constructor(
    private readonly dutyCycle: number,
    options: DutyCyclePaceOptions = {},
  ) {
    if (!(dutyCycle > 0 && dutyCycle <= 1)) throw new Error('the duty cycle must be above 0 and at most 1');
    this.sleep = options.sleep ?? ((ms) => this.pause(ms));
    this.elapsedMs = options.elapsedMs ?? (() => performance.now());
  }

  pacer(): <T>(chunk: () => Promise<T>) => Promise<T | null> {
    const restPerBusyMs = (1 - this.dutyCycle) / this.dutyCycle;
    let lastChunkMs: number | null = null;
    return async (chunk) => {
      if (lastChunkMs !== null && restPerBusyMs > 0 && !this.stopping) await this.sleep(lastChunkMs * restPerBusyMs);
      if (this.stopping) return null;
      const started = this.elapsedMs();
      try {
        return await chunk();
      } finally {
        lastChunkMs = this.elapsedMs() - started;
      }
    };
  }

  stop(): void {
    this.stopping = true;
    for (const wake of [...this.pauses]) wake();
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.pauses.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.pauses.add(wake);
    });
  }
}
