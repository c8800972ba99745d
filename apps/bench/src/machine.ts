import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import type { MachineInfo } from './result.js';
import { round } from './measure.js';

function git(args: readonly string[]): string | null {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** The load average now, rounded to two decimals. */
export function loadAverage(): number[] {
  return loadavg().map((x) => round(x, 2));
}

/** CPU, cores, Node, load average and git commit of the machine running the experiment. */
export function machineInfo(): MachineInfo {
  const status = git(['status', '--porcelain', '--untracked-files=no']);
  return {
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    nodeVersion: process.version,
    platform: process.platform,
    arch: process.arch,
    totalMemoryBytes: totalmem(),
    loadAverage: loadAverage(),
    gitCommit: git(['rev-parse', 'HEAD']),
    gitDirty: status === null ? null : status.length > 0,
  };
}
