import {
  type LatchCountsSnapshot,
  LatchCounters,
  LegacyRWLock,
  Mutex,
  RWLock,
} from '@enginekit/mutex-atomics';
import type { ExperimentContext } from '../../experiment.js';
import { deriveSeed } from '../../internal/seeds.js';
import { sleep, startWorker } from '../../internal/workers.js';

export type LockKind = 'Mutex' | 'RWLock' | 'LegacyRWLock';

export interface LockCase {
  readonly label: string;
  readonly kind: LockKind;
  readonly writePercent: number;
  readonly innodb_sync_spin_loops: number;
  readonly innodb_spin_wait_delay: number;
}

/** The atomics latches with 5.5/5.6 spin defaults (30/6); the legacy rw-lock with 5.1's (20/5). */
const CASES: readonly LockCase[] = [
  {
    label: 'Mutex (atomics)',
    kind: 'Mutex',
    writePercent: 100,
    innodb_sync_spin_loops: 30,
    innodb_spin_wait_delay: 6,
  },
  {
    label: 'RWLock (atomics), 90 % S',
    kind: 'RWLock',
    writePercent: 10,
    innodb_sync_spin_loops: 30,
    innodb_spin_wait_delay: 6,
  },
  {
    label: 'LegacyRWLock (5.1), 90 % S',
    kind: 'LegacyRWLock',
    writePercent: 10,
    innodb_sync_spin_loops: 20,
    innodb_spin_wait_delay: 5,
  },
  {
    label: 'RWLock (atomics), 100 % S',
    kind: 'RWLock',
    writePercent: 0,
    innodb_sync_spin_loops: 30,
    innodb_spin_wait_delay: 6,
  },
  {
    label: 'LegacyRWLock (5.1), 100 % S',
    kind: 'LegacyRWLock',
    writePercent: 0,
    innodb_sync_spin_loops: 20,
    innodb_spin_wait_delay: 5,
  },
];

/** One timed run of one cell: the throughput of all workers together and the SEMAPHORES counters. */
export interface LatchRun {
  readonly opsPerSec: number;
  readonly counts: LatchCountsSnapshot;
}

/** One lock at one worker count, with its runs in round order. */
export interface LatchCell {
  readonly lockCase: LockCase;
  readonly workers: number;
  readonly runs: readonly LatchRun[];
}

/** What `latches` measures; every field survives JSON. */
export interface LatchesMeasurement {
  readonly settings: {
    readonly cases: readonly LockCase[];
    readonly workerCounts: readonly number[];
    readonly durationMs: number;
    readonly repeats: number;
    readonly warmup: number;
  };
  /** Every case at every worker count, cases in `settings.cases` order. */
  readonly cells: readonly LatchCell[];
}

async function once(
  c: LockCase,
  workers: number,
  durationMs: number,
  warmup: number,
  seed: number,
): Promise<LatchRun> {
  const counters = new LatchCounters();
  const options = {
    counters,
    innodb_sync_spin_loops: c.innodb_sync_spin_loops,
    innodb_spin_wait_delay: c.innodb_spin_wait_delay,
  };
  const lock =
    c.kind === 'Mutex'
      ? new Mutex(options)
      : c.kind === 'RWLock'
        ? new RWLock(options)
        : new LegacyRWLock(options);
  const control = new SharedArrayBuffer(16);
  const ctl = new Int32Array(control);
  const started = Array.from({ length: workers }, (_, i) =>
    startWorker<{ ops: number }>('latch-worker', {
      kind: c.kind,
      lock: lock.descriptor(),
      control,
      writePercent: c.writePercent,
      seed: deriveSeed(seed, `${c.label}/${i}`),
      warmup,
    }),
  );
  while (Atomics.load(ctl, 0) < workers) await sleep(2);
  counters.reset();
  const t0 = performance.now();
  Atomics.store(ctl, 1, 1);
  Atomics.notify(ctl, 1);
  await sleep(durationMs);
  Atomics.store(ctl, 2, 1);
  const results = await Promise.all(started.map((s) => s.result));
  const elapsed = performance.now() - t0;
  const ops = results.reduce((t, r) => t + r.ops, 0);
  return { opsPerSec: ops / (elapsed / 1000), counts: counters.snapshot() };
}

export async function measure(ctx: ExperimentContext): Promise<LatchesMeasurement> {
  const workerCounts = ctx.quick ? [1, 2] : [1, 2, 4, 8];
  const durationMs = ctx.quick ? 40 : 300;
  const repeats = ctx.quick ? 1 : 3;
  const warmup = ctx.quick ? 20_000 : 200_000;
  const cells = CASES.flatMap((lockCase) =>
    workerCounts.map((workers) => ({ lockCase, workers, runs: [] as LatchRun[] })),
  );
  // Rounds are interleaved (every cell once, then again) so outside load hits all cells alike.
  for (let r = 0; r < repeats; r++) {
    ctx.log(`latches: round ${r + 1} of ${repeats}`);
    for (const cell of cells)
      cell.runs.push(await once(cell.lockCase, cell.workers, durationMs, warmup, ctx.seed + r));
  }
  return { settings: { cases: CASES, workerCounts, durationMs, repeats, warmup }, cells };
}
