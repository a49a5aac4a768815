import { InProcessTokenBucket } from '../../adapters/rate-limit/in-process-token-bucket';
import { describeRateLimiterContract } from './rate-limiter.contract';

// The embedded default's limiter, on the real clock like in the API process.
describeRateLimiterContract('in-process', async () => {
  const limiter = new InProcessTokenBucket();
  return { limiter, close: () => limiter.close() };
});
