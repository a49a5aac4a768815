import pino, { type Logger } from 'pino';

/** Structured JSON logs on stdout (one line per event), or stderr for the CLI. */
export function createLogger(level: string, name: string, destination: 1 | 2 = 1): Logger {
  return pino({ level, name, base: { service: name } }, pino.destination(destination));
}
