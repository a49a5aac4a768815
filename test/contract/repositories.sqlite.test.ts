import { describeRepositoryContract } from './repositories.contract';
import { openKnexHarness } from './knex-harness';

// A temporary SQLite file. One connection: a second unit of work waits for the first to end.
describeRepositoryContract('sqlite', () => openKnexHarness('sqlite', { singleWriter: true }));
