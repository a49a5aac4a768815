/**
 * Instructions the API process executes per request, counted by valgrind's callgrind. CPU time on
 * a shared two-core host moves with the host (the same list's floor measured 0.24 to 0.48 ms a
 * page in one afternoon); an instruction count is the same for the same code and requests whatever
 * else the host is doing, so two versions of a change compare within about 2 % (run each twice, alternating).
 * Not always: V8 may optimize a hot function in one run and leave it in baseline code in another,
 * which moved one checkout's `GET /debts` count by 8 %; where a checkout's two runs disagree, run it again.
 *
 *   npx tsx bench/instructions.ts [--path /debts] [--method POST --body '<json>'] [--requests 500] [--warm 6000] [--keep <dir>]
 *
 * The API runs as deployed (cmd/api/main.ts on MySQL at BENCH_MYSQL_URL, a fresh bench_<random>
 * database, and Redis at BENCH_REDIS_URL under a prefix of its own, both removed at the end) inside
 * `valgrind --tool=callgrind --instr-atstart=no`, answering its demo tenant. It gets 61 contacts, 60
 * debts of the first (`bench-1`; `/debts/debt_inv-2026-100007` is one) and 60 payment links through
 * the API, so each of those lists has a full default page, then `--warm` uncounted requests,
 * then `--requests` counted ones, one at a time (callgrind_control -i on / off). Printed per request:
 * the main thread's instructions outside the garbage collector (compare this figure), then every
 * thread's, and those outside V8's optimizing compilers. Compiling and collecting happen by amounts
 * that vary from run to run with their timing (see count).
 * `--method POST --body '<json>'` counts a create instead: every request sends that body with an
 * Idempotency-Key of its own, so each one writes (alone: one at a time, no request shares a group).
 * For legacy POST /debts: `--path /debts --method POST --body '{"externalClientId":"bench-1",
 * "productName":"Bench product","amount":980.25,"dueDate":"2027-01-15","description":"Bench"}'`.
 * `--keep <dir>` keeps callgrind's dumps there, to read with `callgrind_annotate`.
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
const METHOD = option('method', 'GET').toUpperCase();
/** The JSON body of every request (with --method POST), parsed once here so that a typo fails before valgrind starts. */
const BODY: unknown = METHOD === 'GET' ? undefined : JSON.parse(option('body', '{}'));
const REQUESTS = Number(option('requests', '500'));
const WARM = Number(option('warm', '6000'));
/** A folder to keep callgrind's dumps in, for callgrind_annotate (by default they are removed). */
const KEEP = option('keep', '');

/** Frames of V8's optimizing compilers (TurboFan, Maglev), as callgrind_annotate names them. */
const COMPILER = /compiler::|maglev::/i;
/** Frames of V8's garbage collector (marking, sweeping, scavenging, evacuating, their bookkeeping). */
const COLLECTOR = /Mark(ing|Compact|Bit)|Sweep|Scaveng|Evacuat|RememberedSet|SlotSet|PointersUpdating|GCTracer|MemoryReducer|heap::base::|cppgc::|Heap::(CollectGarbage|PerformGarbageCollection|IterateRoots)/;

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
    // As in the bench: every request pays the limiter, none is refused (BENCH_RATE_LIMIT_CAPACITY=0: off).
    RATE_LIMIT_CAPACITY: process.env.BENCH_RATE_LIMIT_CAPACITY ?? '1000000',
    RATE_LIMIT_REFILL_PER_SECOND: '1000000',
  };
  try {
    const api = await startService({
      name: 'api',
      command: 'valgrind',
      args: [
        '--tool=callgrind',
        '--vgdb=yes',
        '--instr-atstart=no',
        '--smc-check=all-non-file',
        '--separate-threads=yes',
        `--callgrind-out-file=${dir}/callgrind.%p`,
        process.execPath,
        '--import',
        'tsx',
        'cmd/api/main.ts',
      ],
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
      const phones = [{ number: `+52 55 ${10_000_000 + i}`, type: 'MOBILE', primary: true }];
      await call('POST', '/contacts', { externalClientId: `bench-c${i}`, name: `Contacto ${i}`, email: `c${i}@example.com`, phones });
      await call('POST', '/payment-links', { externalPaymentLinkId: `link-${i}`, amount: 350.75, description: `Link ${i}`, expiresAt: '2027-01-15T00:00:00Z' });
    }
    // A create's requests each carry a key of their own: none is answered from an earlier one.
    let sent = 0;
    const measured = () => (METHOD === 'GET' ? call('GET', PATH) : call(METHOD, PATH, BODY, { 'idempotency-key': `count-${++sent}` }));
    for (let i = 0; i < WARM; i++) await measured();
    const control = (...command: string[]) => run('callgrind_control', [...command, String(api.pid)], { env });
    await control('-i', 'on');
    let bytes = 0;
    for (let i = 0; i < REQUESTS; i++) bytes += await measured();
    await control('-i', 'off');
    await control('-d');
    await api.stop();
    const { all, compiling, main } = await count(dir);
    if (KEEP) {
      fs.mkdirSync(KEEP, { recursive: true });
      for (const file of fs.readdirSync(dir).filter((name) => name.startsWith('callgrind.'))) fs.copyFileSync(path.join(dir, file), path.join(KEEP, file));
    }
    const per = (n: number) => Math.round(n / REQUESTS).toLocaleString('en-US');
    console.log(
      `${METHOD} ${PATH}: ${per(main)} instructions a request on the main thread outside the collector; ${per(all)} on every thread, ${per(all - compiling)} outside ` +
        `the optimizing compilers (${REQUESTS} requests after ${WARM}, answers of ${Math.round(bytes / REQUESTS)} characters)`,
    );
  } finally {
    await stopAll();
    await db.drop();
    await deleteRedisPrefix(redisUrl, prefix);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Every instruction in the dumps callgrind wrote (one per thread, `-01` the main one), those in the
 * compilers' frames, and the main thread's outside the collector's frames: the requests' own work.
 * V8's background threads compile, and mark and sweep for a full collection, by amounts that vary
 * with their timing; a full collection falls inside the counted requests or not, and its main
 * thread part alone moved the main thread's count of 500 pages by up to 10 %.
 */
async function count(dir: string): Promise<{ all: number; compiling: number; main: number }> {
  let all = 0;
  let compiling = 0;
  let main = 0;
  for (const file of fs.readdirSync(dir).filter((name) => name.startsWith('callgrind.'))) {
    // A thread that ran nothing while counting leaves a dump without events.
    if (!/^events:/m.test(fs.readFileSync(path.join(dir, file), 'utf8'))) continue;
    const { stdout } = await run('callgrind_annotate', ['--threshold=100', '--auto=no', path.join(dir, file)], { maxBuffer: 256 * 1024 * 1024 });
    const isMain = file.endsWith('-01');
    for (const line of stdout.split('\n')) {
      const match = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line);
      if (!match || match[2]!.includes('PROGRAM TOTALS')) continue;
      const instructions = Number(match[1]!.replaceAll(',', ''));
      all += instructions;
      if (COMPILER.test(match[2]!)) compiling += instructions;
      if (isMain && !COLLECTOR.test(match[2]!)) main += instructions;
    }
  }
  return { all, compiling, main };
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
