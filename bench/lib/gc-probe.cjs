'use strict';
/**
 * Preloaded by the bench into the API and worker processes it starts (NODE_OPTIONS=--require),
 * never by the service itself. On SIGUSR2 it runs two full garbage collections and writes
 * process.memoryUsage() to $BENCH_GC_PROBE_DIR/<pid>.json: the live heap, which only a leak
 * grows from run to run, where RSS also moves with the collector's timing.
 */
const dir = process.env.BENCH_GC_PROBE_DIR;
if (dir) {
  const fs = require('node:fs');
  const path = require('node:path');
  require('node:v8').setFlagsFromString('--expose-gc');
  const gc = require('node:vm').runInNewContext('gc');
  process.on('SIGUSR2', () => {
    // Twice: V8 frees the backing stores of the Buffers a collection found dead on a thread of its
    // own after it, so `external` read right after one collection still counted some of them, more
    // or less each time (dead 72 KB Buffers in a plain script: 50 to 83 MB right after one, 1.5 to
    // 6 MB after two or 200 ms later). The second collection waits for that sweep to finish first.
    gc();
    gc();
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    const file = path.join(dir, `${process.pid}.json`);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify({ rss, heapUsed, external, arrayBuffers }));
    fs.renameSync(`${file}.tmp`, file);
  });
}
