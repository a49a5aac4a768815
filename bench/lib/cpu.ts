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
  /** idle + iowait. */
  idle: number;
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

/** Process names of the database server: mariadbd/mysqld, or postgres (see useDatabaseServer). */
let databaseCommands = new Set(['mariadbd', 'mysqld']);

/**
 * Which server's processes count as the database (BenchDialect.serverCommands): MySQL is one
 * process; PostgreSQL is a postmaster and one backend process per connection, all named postgres.
 */
export function useDatabaseServer(commands: string[]): void {
  databaseCommands = new Set(commands);
}

export function cpuSnapshot(): CpuSnapshot | null {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
    // irq/softirq time (loopback traffic of the bench itself) is in no process's ticks: leave it
    // out of "busy" so it is not mistaken for someone else's work.
    const busy = user + nice + system;
    const pids = [process.pid, ...descendants(process.pid)];
    return { busy, idle: idle + iowait, total: busy + irq + softirq + idle + iowait + steal, steal, ours: pids.reduce((sum, pid) => sum + processTicks(pid), 0) + databaseTicks() };
  } catch {
    return null;
  }
}

export function cpuShare(before: CpuSnapshot | null, after: CpuSnapshot | null, cores: number): CpuShare | null {
  const share = coresBetween(before, after, cores);
  if (!share || !before || !after) return null;
  return {
    otherCores: share(Math.max(0, after.busy - before.busy - (after.ours - before.ours))),
    stealCores: share(after.steal - before.steal),
  };
}

/** The whole machine between two snapshots, in cores' worth: busy (user + system), idle and steal. */
export interface MachineCores {
  busyCores: number;
  idleCores: number;
  stealCores: number;
}

export function machineCores(before: CpuSnapshot | null, after: CpuSnapshot | null, cores: number): MachineCores | null {
  const share = coresBetween(before, after, cores);
  if (!share || !before || !after) return null;
  return { busyCores: share(after.busy - before.busy), idleCores: share(after.idle - before.idle), stealCores: share(after.steal - before.steal) };
}

/** Jiffies spent between two snapshots as cores' worth (two decimals), or null without an interval. */
function coresBetween(before: CpuSnapshot | null, after: CpuSnapshot | null, cores: number): ((jiffies: number) => number) | null {
  if (!before || !after || after.total <= before.total) return null;
  const elapsed = after.total - before.total;
  return (jiffies) => Math.round((jiffies / elapsed) * cores * 100) / 100;
}

/** CPU time (user + system) a process has used so far, in ms. */
export function processCpuMs(pid: number): number {
  return (processTicks(pid) * 1000) / clockTicksPerSecond();
}

/**
 * CPU time the database server's processes have used so far, in ms: every live one (mariadbd; or
 * PostgreSQL's postmaster, background processes and backends), plus what the exited children of
 * the server's parent process used (PostgreSQL's postmaster reaps a backend when its connection
 * closes, and the kernel adds its CPU to the postmaster's cutime/cstime), so a backend that
 * lived only during a scenario still counts.
 */
export function databaseCpuMs(): number {
  return (databaseTicks() * 1000) / clockTicksPerSecond();
}

function databaseTicks(): number {
  const pids = databasePids();
  const own = new Set(pids);
  return pids.reduce((sum, pid) => {
    const stat = procStat(pid);
    if (!stat) return sum;
    // The server's top process (its parent is not a server process) also carries its reaped children.
    const reaped = own.has(stat.ppid) ? 0 : stat.cutime + stat.cstime;
    return sum + stat.utime + stat.stime + reaped;
  }, 0);
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
  const stat = procStat(pid);
  return stat ? stat.utime + stat.stime : 0;
}

/** Fields 4 and 14 to 17 of proc(5): the parent, and the CPU ticks of the process and of its reaped children. */
function procStat(pid: number): { ppid: number; utime: number; stime: number; cutime: number; cstime: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), utime: Number(fields[11]), stime: Number(fields[12]), cutime: Number(fields[13]), cstime: Number(fields[14]) };
  } catch {
    return null;
  }
}

/**
 * The server's processes, looked up again on every call: PostgreSQL starts a backend per
 * connection (a scan of /proc takes a few ms, next to seconds of load).
 */
function databasePids(): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (databaseCommands.has(fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
