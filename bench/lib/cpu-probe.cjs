'use strict';
/**
 * Preloaded by the bench into the API process (NODE_OPTIONS=--require), never by the service
 * itself. The bench writes a command to $BENCH_CPU_PROBE_DIR/<pid>.cmd and sends SIGWINCH:
 * `start` starts V8's sampling profiler; `stop <name>` stops it and writes what the samples say
 * to $BENCH_CPU_PROBE_DIR/<pid>-<name>.json: the self time per function and per part of a
 * request (bench/lib/profile.ts reads it). Native frames (a socket write, a hash) count for the
 * nearest JavaScript frame that called them, so their cost lands on the part that asked for it.
 * With BENCH_SCENARIO_PROFILES=<dir> each scenario's whole profile is kept there as well
 * (<scenario id>.cpuprofile, for Chrome DevTools or bench/lib/callers.cjs). With
 * BENCH_SCENARIO_HEAP_PROFILES=<dir> V8's sampling heap profiler runs beside it, one sample per
 * 4 KiB allocated, the objects later collected included, and each scenario's allocations are kept
 * there (<scenario id>.heapprofile, for the Memory tab of Chrome DevTools): what a request
 * allocates, which is what its garbage collection costs follow. It slows the profile pass, so
 * the CPU table of a run with it is not comparable.
 *
 * `statements-start` and `statements-stop <name>` record the SQL the API sends in between, as
 * Knex hands it to the driver (`?` placeholders and their bindings): a list's floor replays the
 * statements of one request (bench/baselines/koa-page.ts).
 */
const dir = process.env.BENCH_CPU_PROBE_DIR;
if (dir) {
  const fs = require('node:fs');
  const path = require('node:path');
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))));

  /** Parts of a request, by where the code lives; the first match wins. */
  const PARTS = [
    ['JWT verification', /jsonwebtoken|\/jws\/|\/jwa\/|jwt-token-service/],
    ['authentication', /authenticate-request|credential-cache|knex-credential-repository|secret-hasher|hmac-secret|sha256/],
    // BullMQ's own code and the outbox's hand-over to it; the Redis driver below serves both it and the rate limit.
    ['job queue (BullMQ)', /\/bullmq\/|adapters\/queue\/|job-outbox|dispatch-outbox|msgpackr/],
    ['Redis (rate limit, queue)', /rate-limit|token-bucket|ioredis|redis-parser|cluster-key-slot/],
    ['validation', /\/ajv\/|ajv-formats|adapters\/http\/validation|fast-uri/],
    ['logging', /pino|sonic-boom|thread-stream|request-context/],
    ['metrics', /prom-client|http-metrics|tdigest|bintrees/],
    // The driver of DATABASE_URL: mysql2, or node-postgres (pg and its parsers) on a --database postgres run.
    [
      `SQL (knex + ${/^postgres(ql)?:/.test(process.env.DATABASE_URL ?? '') ? 'pg' : 'mysql2'})`,
      /\/knex\/|\/mysql2\/|\/tarn\/|sql-escaper|sqlstring|lru-cache|named-placeholders|iconv-lite|long\/|denque|\/pg\/|\/pg-(protocol|types|pool|cloudflare|connection-string|int8)\/|\/pgpass\/|\/postgres-(array|date|bytea|interval)\/|persistence\//,
    ],
    ['envelope and mapping', /adapters\/http\/(presenters|mappers|route|error-mapping|routes)/],
    // Rendering the events a write appends, and signing the hosted pages' links a debt or link answers with.
    ['events and signed links', /adapters\/(events|gateways)\/|page-signer/],
    ['use case and domain', /\/internal\//],
    ['HTTP and Koa', /\/koa\/|@koa\/router|koa-compose|delegates|on-finished|statuses|content-type|raw-body|json-body|node:_http|node:http|node:net|node:stream|node:internal\/streams|node:internal\/stream_base|node:events|path-to-regexp|type-is|mime|accepts|vary|encodeurl|escape-html|fresh|http-errors|cookies|depd|destroy|ee-first|only|parseurl|node:url|node:internal\/url/],
  ];

  /** Node's generic plumbing: its cost belongs to the code that called it (see attribute below). */
  const GENERIC = /^node:(net|events|buffer|string_decoder|internal\/(streams\/|stream_base_commons|net|buffer|crypto\/|timers|process\/task_queues|async_hooks))/;

  const partOf = (url) => {
    for (const [name, pattern] of PARTS) if (pattern.test(url)) return name;
    return null;
  };

  function summarize(profile) {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    /**
     * The frame a sample counts for: the node's own when it is code of the service or of a package,
     * else the nearest such caller's. Native frames (a socket write, a hash) and Node's generic
     * plumbing (net, streams, events, buffers, timers, the tick queue) serve whoever called them:
     * the writeBuffer under mysql2's Connection.write is SQL, the one under the HTTP response is
     * HTTP. Where no such caller exists, a native frame counts for its nearest JavaScript caller and a
     * frame of the plumbing for itself.
     */
    const attributed = new Map();
    const servesCaller = (frame) => !frame.url ? !/^\((garbage collector|program|idle)\)$/.test(frame.functionName) : GENERIC.test(frame.url);
    const attribute = (id) => {
      if (attributed.has(id)) return attributed.get(id);
      const node = byId.get(id);
      let result = node;
      if (servesCaller(node.callFrame) && parent.has(id)) {
        const caller = attribute(parent.get(id));
        // A native frame takes its nearest JavaScript caller even when that is plumbing.
        if (caller.callFrame.url && (!GENERIC.test(caller.callFrame.url) || !node.callFrame.url)) result = caller;
      }
      attributed.set(id, result);
      return result;
    };
    /**
     * Samples under this probe's own calls (starting and stopping the profiler) are not a request's;
     * those under the statement recorder, which every query of the API passes through, are.
     */
    const probe = new Map();
    const inProbe = (id) => {
      if (probe.has(id)) return probe.get(id);
      const { url, functionName } = byId.get(id).callFrame;
      const own = (url.endsWith('/cpu-probe.cjs') && functionName !== 'recordingQuery') || url === 'node:inspector';
      const result = own || (parent.has(id) && inProbe(parent.get(id)));
      probe.set(id, result);
      return result;
    };
    const selfUs = new Map();
    const partUs = new Map();
    let totalUs = 0;
    profile.samples.forEach((id, i) => {
      const node = byId.get(id);
      const dt = profile.timeDeltas[i] ?? 0;
      if (node.callFrame.functionName === '(idle)' || inProbe(id)) return;
      totalUs += dt;
      const own = node.callFrame;
      const url = own.url.replace(/^file:\/\//, '').replace(/.*\/node_modules\//, 'node_modules/').replace(process.cwd() + '/', '');
      const key = `${own.functionName || '(anonymous)'} ${url ? `${url}:${own.lineNumber + 1}` : '(native)'}`;
      selfUs.set(key, (selfUs.get(key) ?? 0) + dt);
      const frame = attribute(id).callFrame;
      const part = frame.functionName === '(garbage collector)' ? 'garbage collection' : (partOf(frame.url) ?? 'other');
      partUs.set(part, (partUs.get(part) ?? 0) + dt);
    });
    const share = (us) => Math.round((us / Math.max(totalUs, 1)) * 1000) / 10;
    return {
      busyMs: Math.round(totalUs / 1000),
      parts: Object.fromEntries([...partUs].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, share(v)])),
      top: [...selfUs].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([fn, us]) => ({ fn, pct: share(us) })),
    };
  }

  /** Knex's every query goes through Client#query (the dialects keep it): wrapped to record while asked. */
  let recording = null;
  const KnexClient = require(require.resolve('knex/lib/client', { paths: [process.cwd()] }));
  const query = KnexClient.prototype.query;
  KnexClient.prototype.query = function recordingQuery(connection, queryParam) {
    if (recording) {
      const { sql, bindings } = typeof queryParam === 'string' ? { sql: queryParam } : queryParam;
      recording.push({ sql, bindings: bindings ?? [] });
    }
    return query.call(this, connection, queryParam);
  };

  const heapDir = process.env.BENCH_SCENARIO_HEAP_PROFILES;
  process.on('SIGWINCH', () => {
    const file = path.join(dir, `${process.pid}.cmd`);
    const [command, name] = fs.readFileSync(file, 'utf8').trim().split(/\s+/);
    const done = (result) => {
      const out = path.join(dir, `${process.pid}-${name ?? command}.json`);
      fs.writeFileSync(`${out}.tmp`, JSON.stringify(result));
      fs.renameSync(`${out}.tmp`, out);
    };
    if (command === 'start') {
      post('Profiler.enable')
        .then(() => post('Profiler.setSamplingInterval', { interval: 250 }))
        .then(() => post('Profiler.start'))
        .then(() => (heapDir ? post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }) : null))
        .then(() => done({ started: true }), (error) => done({ error: String(error) }));
    } else if (command === 'stop') {
      post('Profiler.stop')
        .then(({ profile }) => {
          // BENCH_SCENARIO_PROFILES=<dir>: each scenario's whole profile too, for Chrome DevTools.
          const keep = process.env.BENCH_SCENARIO_PROFILES;
          if (keep) fs.writeFileSync(path.join(keep, `${name}.cpuprofile`), JSON.stringify(profile));
          const summary = summarize(profile);
          if (!heapDir) return summary;
          return post('HeapProfiler.stopSampling').then(({ profile: heap }) => {
            fs.writeFileSync(path.join(heapDir, `${name}.heapprofile`), JSON.stringify(heap));
            return summary;
          });
        })
        .then(done, (error) => done({ error: String(error) }));
    } else if (command === 'statements-start') {
      recording = [];
      done({ started: true });
    } else if (command === 'statements-stop') {
      done({ statements: recording ?? [] });
      recording = null;
    }
  });
}
