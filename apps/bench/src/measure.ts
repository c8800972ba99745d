/** Median and spread of repeated measurements (milliseconds, or any unit the caller uses). */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly runs: number;
  readonly samples: readonly number[];
}

/** Median (mean of the middle two for an even count), min and max. REQUIRES: samples not empty. */
export function spread(samples: readonly number[]): Spread {
  if (samples.length === 0) throw new RangeError('samples must not be empty');
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
  return {
    median,
    min: s[0] as number,
    max: s[s.length - 1] as number,
    runs: s.length,
    samples: [...samples],
  };
}

/** The median of `samples` ({@link spread}'s). REQUIRES: samples not empty. */
export function median(samples: readonly number[]): number {
  return spread(samples).median;
}

/** `(max − min) / median` as a percentage: how far the runs moved. */
export function spreadPercent(s: Spread): number {
  return s.median === 0 ? 0 : ((s.max - s.min) / s.median) * 100;
}

/**
 * Times `fn` `runs` times in a row (after one warm-up call) and returns the spread of the
 * wall-clock milliseconds.
 */
export function timeRuns(fn: () => void, runs: number): Spread {
  fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return spread(samples);
}

/**
 * Times several configurations fairly on a shared machine: `rounds` rounds, each running every
 * configuration once, in turn, so load from other processes hits them alike. Returns one spread
 * per configuration, in the order given.
 */
export function timeInterleaved(fns: readonly (() => void)[], rounds: number): Spread[] {
  for (const fn of fns) fn();
  const samples: number[][] = fns.map(() => []);
  for (let r = 0; r < rounds; r++) {
    fns.forEach((fn, i) => {
      const t0 = performance.now();
      fn();
      samples[i]?.push(performance.now() - t0);
    });
  }
  return samples.map(spread);
}

/** Wall-clock and CPU milliseconds of one measurement (CPU: user + system, every thread). */
export interface WallCpu {
  readonly wall: number;
  readonly cpu: number;
}

/** Runs `fn` once (it may be async) and returns its wall-clock and process CPU milliseconds. */
export async function wallCpu(fn: () => unknown): Promise<WallCpu> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

/**
 * As {@link timeRuns} for work that may be async, with the process's CPU time beside the wall
 * time: medians of `runs` calls after one warm-up call. On a shared machine the CPU time moves
 * less with the load than the wall time does.
 */
export async function timeRunsCpu(fn: () => unknown, runs: number): Promise<WallCpu> {
  await fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = await wallCpu(fn);
    wall.push(t.wall);
    cpu.push(t.cpu);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

/**
 * As {@link timeInterleaved} with CPU time: one warm-up call of each, then `rounds` rounds of
 * one call of each in turn; the median wall and CPU milliseconds of each, in the order given.
 */
export async function timeInterleavedCpu(
  fns: readonly (() => unknown)[],
  rounds: number,
): Promise<WallCpu[]> {
  for (const fn of fns) await fn();
  const wall: number[][] = fns.map(() => []);
  const cpu: number[][] = fns.map(() => []);
  for (let r = 0; r < rounds; r++)
    for (const [i, fn] of fns.entries()) {
      const t = await wallCpu(fn);
      wall[i]?.push(t.wall);
      cpu[i]?.push(t.cpu);
    }
  return fns.map((_, i) => ({ wall: median(wall[i] ?? []), cpu: median(cpu[i] ?? []) }));
}

/** Rounds to `digits` decimals (for tables and JSON that stay readable). */
export function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
