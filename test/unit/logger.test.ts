import { expect } from 'chai';
import { createLogger } from '../../cmd/shared/logger';

/** cmd/shared/logger.ts: the JSON logs of the api and worker processes. */
describe('logger', () => {
  it('censors secret fields of whatever is logged', () => {
    const lines: string[] = [];
    const logger = createLogger('info', 'test', 1, { write: (line: string) => void lines.push(line) });
    logger.info({ endpoint: { url: 'https://a.example', secret: 'whsec_leak1', previousSecret: 'whsec_leak2' }, data: { webhook: { secrets: ['whsec_leak3'] } }, secret: 'whsec_leak4' }, 'logged');
    const [line] = lines;
    expect(line).to.not.match(/whsec_leak/);
    expect(JSON.parse(line!).endpoint).to.deep.equal({ url: 'https://a.example', secret: '[redacted]', previousSecret: '[redacted]' });
  });
});
