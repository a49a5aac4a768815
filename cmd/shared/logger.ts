import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs on stdout (one line per event), or stderr for the CLI. Writes are
 * asynchronous so a log line per request stays off the hot path; `flushLogs` runs at shutdown.
 */
export function createLogger(level: string, name: string, destination: 1 | 2 = 1): Logger {
  return pino({ level, name, base: { service: name } }, pino.destination({ dest: destination, sync: false }));
}

export function flushLogs(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
