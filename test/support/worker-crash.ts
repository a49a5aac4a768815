/**
 * Killing a worker process mid-job and letting another one take the job over, shared by the
 * system tests and the reliability suite (test/reliability/worker-crash.test.ts).
 */
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { Proc } from './child-process';

/** SIGKILL to the whole process group: no shutdown hook, no lock release, no last query. */
export async function crash(proc: Proc): Promise<void> {
  process.kill(-proc.child.pid!, 'SIGKILL');
  await proc.exited;
}

/**
 * BullMQ hands a crashed worker's job to another worker once its lock has expired (30 s) and a
 * stalled-job check has seen it active twice (every 30 s). This fast-forwards those two timers,
 * as a frozen clock would: the lock is gone and the job was seen active, so the next stalled-job
 * check of a (new) worker moves it back to waiting.
 */
export async function expireStalledJob(queue: Queue, redisUrl: string, jobId: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    await redis.del(`${queue.toKey(jobId)}:lock`, queue.toKey('stalled-check'));
    await redis.sadd(queue.toKey('stalled'), jobId);
  } finally {
    redis.disconnect();
  }
}
