import type { Application } from '../../internal/application';

export interface WebhookDispatcher {
  /** Stops the timer and waits for the dispatch under way. */
  stop(): Promise<void>;
}

/**
 * Runs the webhook dispatch (fan-out, then the due deliveries handed to the queue) every
 * `everyMs` in this process, one run at a time. Worker processes run it, and the API process
 * when it runs the jobs itself; several processes may, the dispatch takes leases.
 */
export function startWebhookDispatcher(app: Application, options: { everyMs: number; onError?: (error: unknown) => void }): WebhookDispatcher {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = app.jobs.dispatchWebhooks
      .execute()
      .then(() => undefined, (error: unknown) => options.onError?.(error))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, options.everyMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
