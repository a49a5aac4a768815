import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import knex from 'knex';

const ROOT = path.resolve(__dirname, '../..');
const run = promisify(execFile);

/** The operator CLI as an operator runs it: a child process on a SQLite file. */
describe('admin CLI process (npm run admin)', function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-admin-'));
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('create-client --json prints exactly one JSON object and stores the client', async () => {
    const file = path.join(dir, 'admin.sqlite');
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: `sqlite:${file}`, DATA_DIR: dir, APP_ENV: 'development' };
    delete env.REDIS_URL;
    delete env.JWT_SECRET;
    delete env.JWT_SECRET_FILE;
    const { stdout } = await run(
      path.join(ROOT, 'node_modules/.bin/tsx'),
      [
        'cmd/admin/main.ts', 'create-client',
        '--organization', 'Process Org', '--username', 'process_user', '--password', 'a-long-password',
        '--company', 'PROC-A', '--company', 'PROC-B', '--direct-debit', '--json',
      ],
      { cwd: ROOT, env, timeout: 50_000 },
    );

    const json = JSON.parse(stdout);
    expect(stdout.trim().split('\n')).to.have.length(1);
    expect(json).to.have.keys('organizationId', 'clientUsername', 'apiKey', 'loginApiKey', 'companies');
    expect(json.clientUsername).to.equal('process_user');
    expect(json.apiKey).to.match(/^ck_dev_/);
    expect(json.loginApiKey).to.match(/^lk_dev_/);
    expect(json.companies).to.deep.equal([{ companyCode: 'PROC-A' }, { companyCode: 'PROC-B' }]);

    const db = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
    try {
      const companies = await db('companies').where({ organization_id: json.organizationId }).orderBy('code');
      expect(companies.map((c) => [c.code, Boolean(c.direct_debit_enabled)])).to.deep.equal([['PROC-A', true], ['PROC-B', true]]);
      const keys = await db('api_keys').where({ organization_id: json.organizationId });
      expect(keys).to.have.length(2);
      expect(JSON.stringify(keys)).to.not.include(json.apiKey);
    } finally {
      await db.destroy();
    }
    expect(fs.existsSync(path.join(dir, 'jwt-secret')), 'the development secret is kept under DATA_DIR').to.equal(true);
  });
});
