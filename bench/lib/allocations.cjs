'use strict';
/**
 * What allocates, in a heap profile kept with BENCH_SCENARIO_HEAP_PROFILES (bench/lib/cpu-probe.cjs):
 *
 *   node bench/lib/allocations.cjs <file.heapprofile> [rows, default 25]
 *
 * prints the bytes the sampled run allocated, then the functions that allocated most (their own
 * allocations, not their callees'), with their share and megabytes. Divide by the requests the
 * profile pass served for bytes per request; a scavenge's pause follows what is still alive, and
 * how often one comes follows what is allocated.
 */
const fs = require('node:fs');
const { frameName } = require('./frame-name.cjs');

const [file, rowsArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/lib/allocations.cjs <file.heapprofile> [rows]');
  process.exit(2);
}
const rows = Number(rowsArg ?? 25);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));


let total = 0;
const bySite = new Map();
const pending = [profile.head];
while (pending.length > 0) {
  const node = pending.pop();
  total += node.selfSize;
  if (node.selfSize > 0) {
    const name = frameName(node.callFrame);
    bySite.set(name, (bySite.get(name) ?? 0) + node.selfSize);
  }
  pending.push(...(node.children ?? []));
}

console.log(`${(total / 1e6).toFixed(1)} MB allocated in the sampled run`);
for (const [name, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
  console.log(`${((100 * bytes) / total).toFixed(1).padStart(5)} % ${(bytes / 1e6).toFixed(1).padStart(7)} MB  ${name}`);
}
