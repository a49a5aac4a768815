import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import knex from 'knex';
import { killIfAlive, type Proc, startProcess, waitFor } from '../support/child-process';

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

/** The operations commands as an operator runs them, beside a running API process. */
describe('admin CLI process: rate limits and the audit log', function () {
  this.timeout(90_000);
  let dir: string;
  let api: Proc | null = null;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-admin-ops-'));
  });
  after(() => {
    killIfAlive(api);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const file = () => path.join(dir, 'ops.sqlite');
  function admin(args: string[], extraEnv: Record<string, string> = {}) {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: `sqlite:${file()}`, DATA_DIR: dir, APP_ENV: 'development', ...extraEnv };
    for (const key of ['REDIS_URL', 'JWT_SECRET', 'JWT_SECRET_FILE', 'ADMIN_OPERATOR', 'RATE_LIMIT_CAPACITY', 'RATE_LIMIT_REFILL_PER_SECOND']) if (!(key in extraEnv)) delete env[key];
    return run(path.join(ROOT, 'node_modules/.bin/tsx'), ['cmd/admin/main.ts', ...args, '--json'], { cwd: ROOT, env, timeout: 50_000 }).then(({ stdout }) => JSON.parse(stdout));
  }

  it('set-rate-limit reaches a running API within the credential cache time; the defaults come from RATE_LIMIT_*; audit-log names the operator', async () => {
    const created = await admin(['create-client', '--organization', 'Ops Org', '--username', 'ops_user', '--password', 'a-long-password'], { ADMIN_OPERATOR: 'alice@bastion' });
    api = startProcess('cmd/api/main.ts', { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: `sqlite:${file()}`, DATA_DIR: dir, RATE_LIMIT_CAPACITY: '7', RATE_LIMIT_REFILL_PER_SECOND: '3' });
    const listening = await waitFor(() => api!.logs().find((l) => String(l.msg).startsWith('listening on')), '"listening on"', { proc: api, timeoutMs: 30_000 });
    const base = `http://127.0.0.1:${listening.port as number}`;
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': created.loginApiKey },
      body: JSON.stringify({ clientUsername: 'ops_user', password: 'a-long-password' }),
    });
    const headers = { 'x-api-key': created.apiKey, 'x-authorization-token': ((await login.json()) as { accessToken: string }).accessToken };
    const limitNow = async () => (await fetch(`${base}/contacts`, { headers })).headers.get('ratelimit-limit');
    expect(await limitNow()).to.equal('7');

    const set = await admin(['set-rate-limit', '--organization', 'Ops Org', '--capacity', '2', '--refill-per-second', '0.5'], { ADMIN_OPERATOR: 'bob@bastion' });
    expect(set).to.deep.equal({ organizationId: created.organizationId, organizationName: 'Ops Org', rateLimit: { capacity: 2, refillPerSecond: 0.5 } });
    // Another process changed it: this API sees it once its 2 s credential cache entry expires.
    await waitFor(async () => (await limitNow()) === '2', 'the new limit on the running API', { proc: api, timeoutMs: 10_000, everyMs: 200 });

    const log = await admin(['audit-log', '--organization', String(created.organizationId)]);
    expect(log.records.map((r: { action: string; actor: { name?: string } }) => [r.action, r.actor.name])).to.deep.equal([
      ['rate_limit.set', 'bob@bastion'],
      ['client.created', 'alice@bastion'],
    ]);
    expect(log.records[0].details).to.deep.equal({ before: null, after: { capacity: 2, refillPerSecond: 0.5 } });
  });

  it('names the OS account and host as the operator when ADMIN_OPERATOR is unset', async () => {
    await admin(['set-rate-limit', '--organization', 'Ops Org', '--default']);
    const log = await admin(['audit-log', '--organization', 'Ops Org', '--limit', '1']);
    expect(log.records).to.have.length(1);
    expect(log.records[0]).to.deep.include({ action: 'rate_limit.cleared', actor: { type: 'operator', name: `${os.userInfo().username}@${os.hostname()}` } });
  });
});
