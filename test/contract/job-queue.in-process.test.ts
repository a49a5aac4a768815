import { InProcessJobQueue } from '../../adapters/queue/in-process/in-process-job-queue';
import { describeJobQueueContract } from './job-queue.contract';

// The queue the embedded default runs on, with its shipped options (three attempts).
describeJobQueueContract('in-process', {
  async open(handlers) {
    const queue = new InProcessJobQueue();
    queue.bind(handlers);
    return { queue, close: () => queue.close() };
  },
});
