/**
 * Instructions the API process executes per request, counted by valgrind's callgrind. CPU time on
 * a shared two-core host moves with the host (the same list's floor measured 0.24 to 0.48 ms a
 * page in one afternoon); an instruction count is the same for the same code and requests whatever
 * else the host is doing, so two versions of a change compare within about 2 % (run each twice, alternating).
 *
 *   npx tsx bench/instructions.ts [--path /debts] [--requests 500] [--warm 6000]
 *
 * The API runs as deployed (cmd/api/main.ts on MySQL at BENCH_MYSQL_URL, a fresh bench_<random>
 * database, and Redis at BENCH_REDIS_URL under a prefix of its own, both removed at the end) inside
 * `valgrind --tool=callgrind --instr-atstart=no`, answering its demo tenant. It gets a contact and 60
 * debts through the API (`/debts/debt_inv-2026-100007` is one of them), `--warm` uncounted requests,
 * then `--requests` counted ones, one at a time (callgrind_control -i on / off). Printed per request:
 * every instruction, and those outside V8's optimizing compilers, which still compile in the
 * background at that point, by an amount that varies from run to run (compare the second figure).
 * Not part of `npm run bench`: valgrind runs the API some 30 times slower. Figures go into
 * docs/performance.md by hand (bench/lib/report.ts).
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { demoCredentials, login, withoutAppConfig } from './lib/demo';
import { createBenchDatabase, deleteRedisPrefix } from './lib/environment';
import { startService, stopAll } from './lib/processes';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback;
};
const PATH = option('path', '/debts');
const REQUESTS = Number(option('requests', '500'));
const WARM = Number(option('warm', '6000'));

/** Frames of V8's optimizing compilers (TurboFan, Maglev), as callgrind_annotate names them. */
const COMPILER = /compiler::|maglev::/i;

async function main(): Promise<void> {
  for (const tool of ['valgrind', 'callgrind_control', 'callgrind_annotate']) {
    await run('sh', ['-c', `command -v ${tool}`]).catch(() => {
      throw new Error(`${tool} is not installed (Debian: apt-get install valgrind)`);
    });
  }
  const db = await createBenchDatabase(process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306');
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `bench_${crypto.randomBytes(4).toString('hex')}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-instructions-'));
  // vgdb, behind callgrind_control, names its pipes after USER and HOST: both sides must see the same.
  const env: NodeJS.ProcessEnv = {
    ...withoutAppConfig(process.env),
    USER: os.userInfo().username,
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    DATA_DIR: dir,
    JWT_SECRET: crypto.randomBytes(48).toString('base64url'),
    LOG_LEVEL: 'warn',
    APP_ENV: 'development',
    // As in the bench: every request pays the limiter, none is refused.
    RATE_LIMIT_CAPACITY: '1000000',
    RATE_LIMIT_REFILL_PER_SECOND: '1000000',
  };
  try {
    const api = await startService({
      name: 'api',
      command: 'valgrind',
      args: ['--tool=callgrind', '--vgdb=yes', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${dir}/callgrind.%p`, process.execPath, '--import', 'tsx', 'cmd/api/main.ts'],
      cwd: ROOT,
      env,
      ready: (stdout) => demoCredentials(stdout) !== null,
      startTimeoutMs: 300_000,
    });
    const demo = demoCredentials(api.stdout())!;
    const headers = { 'x-api-key': demo.apiKey, 'x-authorization-token': await login(api.port, demo), 'content-type': 'application/json' };
    const call = async (method: string, url: string, body?: unknown, extra: Record<string, string> = {}) => {
      const response = await fetch(`http://127.0.0.1:${api.port}${url}`, { method, headers: { ...headers, ...extra }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`${method} ${url} → ${response.status} ${text}`);
      return text.length;
    };
    await call('POST', '/contacts', { externalClientId: 'bench-1', name: 'Ana López', email: 'ana@example.com' });
    for (let i = 0; i < 60; i++) {
      const key = `inv-2026-${100000 + i}`;
      await call('POST', '/v2/debts', { externalClientId: 'bench-1', amount: 100 + i, currency: 'MXN', dueDate: '2027-01-15', description: `Invoice ${i}` }, { 'idempotency-key': key });
    }
    for (let i = 0; i < WARM; i++) await call('GET', PATH);
    const control = (...command: string[]) => run('callgrind_control', [...command, String(api.pid)], { env });
    await control('-i', 'on');
    let bytes = 0;
    for (let i = 0; i < REQUESTS; i++) bytes += await call('GET', PATH);
    await control('-i', 'off');
    await control('-d');
    await api.stop();
    const { all, compiling } = await count(dir);
    const per = (n: number) => Math.round(n / REQUESTS).toLocaleString('en-US');
    console.log(`GET ${PATH}: ${per(all)} instructions a request, ${per(all - compiling)} outside the optimizing compilers (${REQUESTS} requests after ${WARM}, answers of ${Math.round(bytes / REQUESTS)} characters)`);
  } finally {
    await stopAll();
    await db.drop();
    await deleteRedisPrefix(redisUrl, prefix);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every instruction in the dumps callgrind wrote, and those in the compilers' frames. */
async function count(dir: string): Promise<{ all: number; compiling: number }> {
  let all = 0;
  let compiling = 0;
  for (const file of fs.readdirSync(dir).filter((name) => name.startsWith('callgrind.'))) {
    const { stdout } = await run('callgrind_annotate', ['--threshold=100', '--auto=no', path.join(dir, file)], { maxBuffer: 256 * 1024 * 1024 });
    for (const line of stdout.split('\n')) {
      const match = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line);
      if (!match || match[2]!.includes('PROGRAM TOTALS')) continue;
      const instructions = Number(match[1]!.replaceAll(',', ''));
      all += instructions;
      if (COMPILER.test(match[2]!)) compiling += instructions;
    }
  }
  return { all, compiling };
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
