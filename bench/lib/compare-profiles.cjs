'use strict';
/**
 * Where one process's CPU goes beyond another's that answered the same requests: the API against
 * its floor (bench/baselines), both kept whole with BENCH_CPU_PROFILE_DIR=<dir> (bench/run.ts):
 *
 *   node bench/lib/compare-profiles.cjs <a.cpuprofile> <b.cpuprofile> [unit, default nm:mysql2] [rows, default 30] [--skip <s>]
 *
 * Busy self time is summed per source: a package (`nm:<name>`), a project file, or a native
 * frame by its name (`writeBuffer`, `(garbage collector)`). Whole-life profiles carry no request
 * count, and the API answers more requests in its life than a floor (the memory and profile
 * passes), so each profile's sums are divided by its own `unit`: a source both processes spend
 * the same on per request. mysql2 is that for a list and its floor (the same statements, the same
 * rows parsed). Printed per source: the difference, a's share and b's, the largest difference first.
 * `--skip <s>` leaves out each profile's first s seconds: startup (module loading, migrations, the
 * collections they cause) is not a request's, and the API loads more code than a floor. In a run of
 * `--only debts.list@32` the processes start together, ready within seconds, and the baselines and
 * the seed run before the first list request, so `--skip 20` keeps the requests alone.
 */
const fs = require('node:fs');

/** `nm:<package>`, a project-relative path, or a native frame's own name. */
function sourceOf({ functionName, url }, root = process.cwd()) {
  if (!url) return functionName;
  const packaged = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (packaged) return `nm:${packaged[1]}`;
  return url.replace(/^file:\/\//, '').replace(`${root}/`, '');
}

/** A profile's busy microseconds per source, and its entry (its first cmd/ or bench/baselines/ file). */
function bySource(profile, root, skipUs) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const sums = new Map();
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < skipUs) return;
    const frame = byId.get(id).callFrame;
    if (frame.functionName === '(idle)') return;
    const source = sourceOf(frame, root);
    sums.set(source, (sums.get(source) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const entry = profile.nodes.map((n) => sourceOf(n.callFrame, root)).find((s) => /^(cmd|bench\/baselines)\//.test(s)) ?? '?';
  return { sums, entry };
}

/**
 * Profiles a and b (parsed .cpuprofile JSON) source by source, each source's busy self time divided
 * by that profile's time in `unit`: rows { source, a, b, diff }, the largest a − b first; samples in
 * the first `skipSeconds` of each profile left out. Throws when either profile spent nothing in `unit`.
 */
function compareProfiles(a, b, unit = 'nm:mysql2', root = process.cwd(), skipSeconds = 0) {
  const left = bySource(a, root, skipSeconds * 1e6);
  const right = bySource(b, root, skipSeconds * 1e6);
  const unitA = left.sums.get(unit);
  const unitB = right.sums.get(unit);
  if (!unitA || !unitB) throw new Error(`${unitA ? 'b' : 'a'} has no busy samples in ${unit}: pick a unit both profiles spend time in`);
  const sources = new Set([...left.sums.keys(), ...right.sums.keys()]);
  const rows = [...sources].map((source) => {
    const shareA = (left.sums.get(source) ?? 0) / unitA;
    const shareB = (right.sums.get(source) ?? 0) / unitB;
    return { source, a: shareA, b: shareB, diff: shareA - shareB };
  });
  rows.sort((x, y) => y.diff - x.diff);
  return { entries: [left.entry, right.entry], unitMs: [unitA / 1000, unitB / 1000], rows };
}

module.exports = { compareProfiles, sourceOf };

if (require.main === module) {
  const args = process.argv.slice(2);
  const skipAt = args.indexOf('--skip');
  const skip = skipAt < 0 ? 0 : Number(args.splice(skipAt, 2)[1]);
  const [fileA, fileB, unitArg, rowsArg] = args;
  if (!fileA || !fileB || !(skip >= 0)) {
    console.error('usage: node bench/lib/compare-profiles.cjs <a.cpuprofile> <b.cpuprofile> [unit, default nm:mysql2] [rows, default 30] [--skip <s>]');
    process.exit(2);
  }
  const unit = unitArg ?? 'nm:mysql2';
  const read = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
  let result;
  try {
    result = compareProfiles(read(fileA), read(fileB), unit, process.cwd(), skip);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  const [entryA, entryB] = result.entries;
  const [msA, msB] = result.unitMs;
  console.log(`a: ${entryA}, ${msA.toFixed(0)} ms in ${unit}; b: ${entryB}, ${msB.toFixed(0)} ms in ${unit}`);
  console.log(`per source, busy self time in units of ${unit} (a − b, a, b):`);
  for (const row of result.rows.slice(0, Number(rowsArg ?? 30))) {
    console.log(`${row.diff.toFixed(3).padStart(7)}  ${row.a.toFixed(3).padStart(6)} ${row.b.toFixed(3).padStart(6)}  ${row.source}`);
  }
}
