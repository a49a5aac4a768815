'use strict';
/**
 * Who calls a function, in a profile kept with BENCH_SCENARIO_PROFILES (bench/lib/cpu-probe.cjs):
 *
 *   node bench/lib/callers.cjs <file.cpuprofile> <function name> [frames, default 6]
 *
 * prints the function's share of the busy samples, then its distinct call stacks (the nearest
 * `frames` frames, innermost first) with the share of the samples each accounts for. Meant for the
 * native frames the summary can only name (writeBuffer, writev, dispatch): which socket write is it?
 */
const fs = require('node:fs');
const { frameName } = require('./frame-name.cjs');

const [file, wanted, framesArg] = process.argv.slice(2);
if (!file || !wanted) {
  console.error('usage: node bench/lib/callers.cjs <file.cpuprofile> <function name> [frames]');
  process.exit(2);
}
const depth = Number(framesArg ?? 6);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);


let busyUs = 0;
let matchUs = 0;
const stacks = new Map();
profile.samples.forEach((id, i) => {
  const node = byId.get(id);
  const dt = profile.timeDeltas[i] ?? 0;
  if (node.callFrame.functionName === '(idle)') return;
  busyUs += dt;
  if (node.callFrame.functionName !== wanted) return;
  matchUs += dt;
  const frames = [];
  for (let at = parent.get(id); at !== undefined && frames.length < depth; at = parent.get(at)) frames.push(frameName(byId.get(at).callFrame));
  const key = frames.join('\n    <- ');
  stacks.set(key, (stacks.get(key) ?? 0) + dt);
});

const pct = (us) => `${((us / Math.max(busyUs, 1)) * 100).toFixed(1)} %`;
console.log(`${wanted}: ${pct(matchUs)} of ${(busyUs / 1000).toFixed(0)} ms busy`);
for (const [stack, us] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`\n${pct(us)}\n    <- ${stack}`);
