/**
 * DATABASE_READ_URL on a real GTID replica: a MariaDB primary and replica of the test's own
 * (test/support/private-mariadb.ts) and the real API process on them, with the application's
 * own user (no SUPER: a write misrouted to the read_only replica would fail, not diverge).
 * - a GET goes to the replica once its API key's read-your-writes window is over; a write and
 *   the reads right after it go to the primary;
 * - with the replica behind (MASTER_DELAY), the key that wrote still reads its write
 *   (read-your-writes), while a read after the window is served by the stale replica;
 * - replication stopped (STOP SLAVE SQL_THREAD), then the replica killed: it is skipped, with a
 *   log line and cf_db_replica_in_use 0, and every read is answered by the primary.
 */
import { expect } from 'chai';
import { killIfAlive, type Proc, startProcess, waitFor } from '../support/child-process';
import { REQUIRE_SERVICES } from '../support/databases';
import { JWT_TEST_SECRET } from '../support/harness';
import { samples } from '../support/prometheus';
import { mariadbdAvailable, type MariadbPair, startMariadbPair } from '../support/private-mariadb';
import { TEST_SECRETS_KEY } from '../support/secrets';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

describe('read replica (DATABASE_READ_URL) [private MariaDB primary + GTID replica, api process]', function () {
  this.timeout(120_000);
  let pair: MariadbPair | null = null;
  let api: Proc | null = null;
  let base = '';
  let headers: Record<string, string> = {};
  let dir = '';

  const reads = async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    const of = (target: string) => samples(text, 'cf_db_reads_total', { target })[0]?.value ?? 0;
    return { primary: of('primary'), replica: of('replica'), inUse: samples(text, 'cf_db_replica_in_use')[0]?.value };
  };
  const post = (key: string) =>
    fetch(`${base}/v2/debts`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify({ externalClientId: 'replica-client', amount: 10, dueDate: '2031-01-01' }) });
  const get = (key: string) => fetch(`${base}/debts/${key}`, { headers });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  before(async function () {
    if (!mariadbdAvailable()) {
      if (REQUIRE_SERVICES) throw new Error('CI=true and mariadbd / mariadb-install-db are not installed');
      this.skip();
    }
    pair = await startMariadbPair();
    await pair.primary('CREATE DATABASE collections CHARACTER SET utf8mb4 COLLATE utf8mb4_bin');
    await pair.primary("CREATE USER 'app'@'%' IDENTIFIED BY 'app'");
    await pair.primary("GRANT ALL ON collections.* TO 'app'@'%'");
    await pair.primary("GRANT SLAVE MONITOR ON *.* TO 'app'@'%'");
    await waitFor(async () => ((await pair!.replica("SHOW DATABASES LIKE 'collections'")) as [unknown[]])[0].length === 1, 'the database on the replica');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-replica-'));
    api = startProcess('cmd/api/main.ts', {
      PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATA_DIR: dir, JWT_SECRET: JWT_TEST_SECRET, SECRETS_KEY: TEST_SECRETS_KEY,
      DATABASE_URL: `mysql://app:app@127.0.0.1:${pair.primaryPort}/collections`,
      DATABASE_READ_URL: `mysql://app:app@127.0.0.1:${pair.replicaPort}/collections`,
      READ_YOUR_WRITES_MS: '1000', REPLICA_MAX_LAG_SECONDS: '30', CREDENTIAL_CACHE_MS: '0',
    });
    const listening = await waitFor(() => api!.logs().find((l) => String(l.msg).startsWith('listening on')), '"listening on"', { proc: api!, timeoutMs: 60_000 });
    base = `http://127.0.0.1:${listening.port as number}`;
    await waitFor(() => api!.output().includes('loginApiKey'), 'the demo banner', { proc: api! });
    const banner = (label: string) => new RegExp(`^\\s+${label}\\s+(\\S+)\\s*$`, 'm').exec(api!.output())![1]!;
    const login = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': banner('loginApiKey') }, body: JSON.stringify({ clientUsername: banner('clientUsername'), password: banner('password') }) });
    headers = { 'x-api-key': banner('apiKey'), 'x-authorization-token': ((await login.json()) as { accessToken: string }).accessToken };
    const contact = await fetch(`${base}/contacts`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ externalClientId: 'replica-client', name: 'Replica', email: 'replica@example.com' }) });
    expect(contact.status).to.equal(201);
    await waitFor(() => api!.logs().find((l) => l.msg === 'read replica in use: stale-tolerant reads go to DATABASE_READ_URL'), 'the replica in use', { proc: api! });
  });
  after(async () => {
    killIfAlive(api);
    await pair?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads the replica once the read-your-writes window is over; writes and the reads right after them the primary', async () => {
    expect((await post('rr-1')).status).to.equal(201);
    const before = await reads();
    expect((await get('rr-1')).status, 'read-your-writes').to.equal(200);
    const right = await reads();
    expect(right.replica - before.replica).to.equal(0);
    expect(right.primary - before.primary).to.be.at.least(1);
    await sleep(1300);
    expect((await get('rr-1')).status).to.equal(200);
    const later = await reads();
    expect(later.replica - right.replica, 'the GET after the window went to the replica').to.be.at.least(1);
    expect(later.inUse).to.equal(1);
  });

  it('with the replica behind, the writer still reads its write; a read after the window may be stale', async () => {
    await pair!.replica('STOP SLAVE');
    await pair!.replica('CHANGE MASTER TO MASTER_DELAY=6');
    await pair!.replica('START SLAVE');
    try {
      expect((await post('rr-lag')).status).to.equal(201);
      expect((await get('rr-lag')).status, 'read-your-writes on a lagging replica').to.equal(200);
      await sleep(1300);
      expect((await get('rr-lag')).status, 'the stale replica, within REPLICA_MAX_LAG_SECONDS').to.equal(404);
      // Once the replica applied it, every read finds it.
      await waitFor(async () => (await get('rr-lag')).status === 200, 'the replica to apply the write', { timeoutMs: 20_000, everyMs: 500 });
    } finally {
      await pair!.replica('STOP SLAVE');
      await pair!.replica('CHANGE MASTER TO MASTER_DELAY=0');
      await pair!.replica('START SLAVE');
    }
  });

  it('skips a replica whose replication stopped, then one that is down, with a log line and a metric; reads answer from the primary', async () => {
    // Log lines from here on (the previous test's STOP SLAVE may have logged a skip already).
    const SKIPPED = 'read replica skipped: every read goes to the primary';
    const from = api!.logs().length;
    const newLog = (predicate: (l: { msg?: string; reason?: unknown }) => boolean) => () => api!.logs().slice(from).find(predicate);
    await waitFor(async () => (await reads()).inUse === 1, 'the replica in use', { proc: api!, timeoutMs: 10_000 });
    await pair!.replica('STOP SLAVE SQL_THREAD');
    const skipped = await waitFor(newLog((l) => l.msg === SKIPPED && String(l.reason).startsWith('replication stopped')), 'the replica skipped', { proc: api!, timeoutMs: 10_000 });
    expect(skipped.reason).to.equal('replication stopped (IO Yes, SQL No)');
    expect((await reads()).inUse).to.equal(0);
    expect((await post('rr-stopped')).status).to.equal(201);
    await sleep(1300);
    const before = await reads();
    expect((await get('rr-stopped')).status, 'answered by the primary').to.equal(200);
    const after = await reads();
    expect(after.replica - before.replica).to.equal(0);
    expect(after.primary - before.primary).to.be.at.least(1);

    await pair!.replica('START SLAVE SQL_THREAD');
    await waitFor(async () => (await reads()).inUse === 1, 'the replica back in use', { proc: api!, timeoutMs: 10_000 });
    await pair!.killReplica();
    await waitFor(newLog((l) => l.msg === SKIPPED && String(l.reason).startsWith('no answer')), 'the replica skipped as down', { proc: api!, timeoutMs: 15_000 });
    expect((await get('rr-stopped')).status).to.equal(200);
    const list = await fetch(`${base}/debts?limit=5`, { headers });
    expect(list.status).to.equal(200);
  });
});
