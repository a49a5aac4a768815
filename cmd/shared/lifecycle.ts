import type { Logger } from 'pino';
import { flushLogs } from './logger';

/**
 * SIGINT/SIGTERM: run the shutdown steps in order (stop HTTP, close workers, close queues and
 * pools), once; a second signal or a stuck step past the deadline exits at once.
 */
export function onShutdown(logger: Logger, steps: (() => Promise<void>)[], deadlineMs = 25_000): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown deadline passed; exiting');
      process.exit(1);
    }, deadlineMs);
    timer.unref();
    try {
      for (const step of steps) await step();
      logger.info('stopped');
      await flushLogs(logger);
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
