import { InProcessJobQueue } from '../../adapters/queue/in-process/in-process-job-queue';
import { describeJobQueueContract } from './job-queue.contract';

// The queue the embedded default runs on, with its shipped options (three attempts).
describeJobQueueContract('in-process', {
  async open() {
    const queue = new InProcessJobQueue();
    return { queue, consumer: queue, close: () => queue.close() };
  },
});
