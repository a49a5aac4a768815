import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { descendants } from './processes';

/**
 * How much of the machine something else used while a scenario ran. On a shared host (other
 * test runs, builds) the figures drop; this makes that visible instead of silent.
 *
 * Counts are jiffies from /proc (Linux). "Ours" is this process, every descendant (API,
 * baselines, tsx wrappers) and the database server, which works for the bench.
 */
export interface CpuSnapshot {
  busy: number;
  total: number;
  steal: number;
  ours: number;
}

export interface CpuShare {
  /** Cores' worth of CPU used by processes outside the bench and the database server. */
  otherCores: number;
  /** Cores' worth the hypervisor withheld (steal). */
  stealCores: number;
}

const DATABASE_COMMANDS = new Set(['mariadbd', 'mysqld']);

export function cpuSnapshot(): CpuSnapshot | null {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
    // irq/softirq time (loopback traffic of the bench itself) is in no process's ticks: leave it
    // out of "busy" so it is not mistaken for someone else's work.
    const busy = user + nice + system;
    const pids = [process.pid, ...descendants(process.pid), ...databasePids()];
    return { busy, total: busy + irq + softirq + idle + iowait + steal, steal, ours: pids.reduce((sum, pid) => sum + processTicks(pid), 0) };
  } catch {
    return null;
  }
}

export function cpuShare(before: CpuSnapshot | null, after: CpuSnapshot | null, cores: number): CpuShare | null {
  if (!before || !after || after.total <= before.total) return null;
  const elapsed = after.total - before.total;
  const other = Math.max(0, after.busy - before.busy - (after.ours - before.ours));
  return {
    otherCores: Math.round((other / elapsed) * cores * 100) / 100,
    stealCores: Math.round(((after.steal - before.steal) / elapsed) * cores * 100) / 100,
  };
}

/** CPU time (user + system) a process has used so far, in ms. */
export function processCpuMs(pid: number): number {
  return (processTicks(pid) * 1000) / clockTicksPerSecond();
}

/** CPU time the database server's processes (mariadbd) have used so far, in ms. */
export function databaseCpuMs(): number {
  return databasePids().reduce((sum, pid) => sum + processCpuMs(pid), 0);
}

let ticksPerSecond: number | null = null;

function clockTicksPerSecond(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** utime + stime of a process, in clock ticks (0 once it is gone). */
function processTicks(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // fields 14 and 15 of proc(5)
  } catch {
    return 0;
  }
}

let cachedDatabasePids: number[] | null = null;

function databasePids(): number[] {
  if (cachedDatabasePids) return cachedDatabasePids;
  cachedDatabasePids = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (DATABASE_COMMANDS.has(fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) cachedDatabasePids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return cachedDatabasePids;
}
