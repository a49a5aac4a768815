import pino, { type Logger } from 'pino';
import type { JobObserver } from '../../ports/job-consumer';

/**
 * Structured JSON logs on stdout (one line per event), or stderr for the CLI. Writes are
 * asynchronous so a log line per request stays off the hot path; `flushLogs` runs at shutdown.
 */
export function createLogger(level: string, name: string, destination: 1 | 2 = 1, stream?: pino.DestinationStream): Logger {
  return pino({ level, name, base: { service: name }, redact: REDACT }, stream ?? pino.destination({ dest: destination, sync: false }));
}

/**
 * Nothing logs secrets on purpose (attempts carry error classes, jobs carry ids, the message
 * senders' errors carry classes and codes); should an object carrying one ever be logged (a
 * webhook endpoint, a request body, the config or its reminder channel settings), these fields
 * are censored, up to two levels deep: webhook secrets, passwords, `smtpUrl` (SMTP_URL holds the
 * SMTP password), `authToken` (TWILIO_AUTH_TOKEN), nodemailer's `auth` and `pass`, and an
 * `authorization` header.
 */
const SECRET_FIELDS = ['secret', 'previousSecret', 'secrets', 'password', 'smtpUrl', 'authToken', 'auth', 'pass', 'authorization'];
export const REDACT: pino.redactOptions = {
  paths: SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
  censor: '[redacted]',
};

export function flushLogs(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}

/** One log line per job attempt that ends: `job completed` with its result, `job failed` with the error. */
export function jobLog(logger: Logger): JobObserver {
  return {
    jobFinished(job) {
      if (job.outcome === 'completed') logger.info({ jobId: job.jobId, name: job.name, result: job.result }, 'job completed');
      else logger.warn({ jobId: job.jobId, name: job.name, attempts: job.attempts, err: job.error }, 'job failed');
    },
  };
}
