import {
  BufferPool,
  type MemoryDevice,
  type ReplacementPolicy,
  SimulatedDevice,
} from '@enginekit/buffer-pool';
import { createGenerator } from '@enginekit/prng';
import type { ExperimentContext } from '../../experiment.js';
import { deriveSeed } from '../../internal/seeds.js';
import { sleep, startWorker } from '../../internal/workers.js';
import { type Spread, timeInterleaved } from '../../measure.js';
import { beladyHits } from './belady.js';
import { deviceWithPages, FakeClock } from './pages.js';

/** One replacement policy's figures over the scan trace. */
export interface PolicyFigures {
  readonly hitRatio: number;
  readonly afterScanHitRatio: number;
  readonly madeYoung: number;
  readonly notMadeYoung: number;
  readonly reads: number;
}

/** One scan's figures on the simulated hdd. */
export interface ScanFigures {
  readonly modeledMs: number;
  readonly requests: number;
  readonly positionings: number;
  readonly readAhead: number;
  readonly reads: number;
  readonly dataReads: number;
}

/** One run of the instances test. */
interface InstancesFigures {
  readonly mops: number;
  readonly hitRatio: number;
  readonly spinWaits: number;
  readonly osWaits: number;
  readonly rwSpinWaits: number;
}

/** One working set, worker count and instance count of the instances test: a figure per round. */
export interface InstancesCell {
  readonly pages: number;
  readonly instances: number;
  readonly workers: number;
  /** M fixes per second, one per round. */
  readonly samples: number[];
  readonly hitRatios: number[];
  readonly spinWaits: number[];
  readonly osWaits: number[];
}

/** What `buffer-pool` measures; every field survives JSON. */
export interface BufferPoolMeasurement {
  readonly settings: {
    readonly shape: ScanTraceShape;
    readonly pageSize: number;
    readonly policies: readonly PolicyCase[];
    readonly readAhead: {
      readonly pages: number;
      readonly frames: number;
      readonly pageSize: number;
      readonly rounds: number;
    };
    readonly instances: {
      readonly workerCounts: readonly number[];
      readonly durationMs: number;
      readonly repeats: number;
      readonly pageSize: number;
      readonly frames: number;
      readonly workingSets: readonly number[];
    };
  };
  /** Accesses in the scan trace. */
  readonly traceLength: number;
  /** Per policy, in `settings.policies` order: the case and its figures. */
  readonly policies: readonly (PolicyCase & PolicyFigures)[];
  /** Belady's MIN on the same trace: hit ratios and the number of hits. */
  readonly belady: { readonly hitRatio: number; readonly afterScanHitRatio: number; readonly hits: number };
  readonly readAhead: {
    readonly on: ScanFigures;
    readonly off: ScanFigures;
    /** With a random lookup between scanned pages. */
    readonly mixedOn: ScanFigures;
    readonly mixedOff: ScanFigures;
    /** CPU milliseconds of the scan alone, interleaved rounds. */
    readonly cpuOn: Spread | undefined;
    readonly cpuOff: Spread | undefined;
  };
  readonly instances: readonly InstancesCell[];
}

// ---------------------------------------------------------------------------------------------
// 1. Scan resistance and hit ratios against Belady's optimum
// ---------------------------------------------------------------------------------------------

export interface ScanTraceShape {
  readonly frames: number;
  readonly hotPages: number;
  readonly scanPages: number;
  /** Hot accesses between two scans. */
  readonly period: number;
  /** Consecutive accesses to each scanned page (one per record read on it). */
  readonly touchesPerPage: number;
  readonly scans: number;
  /** Milliseconds the clock moves per access. */
  readonly msPerAccess: number;
}

/**
 * A hot set read uniformly at random, interrupted by full scans of a large cold table (each page
 * touched a few times in a row); `isHot` marks the hot accesses made in the first fifth of each
 * period after a scan, where a scan-polluted pool shows its misses.
 */
function scanTrace(shape: ScanTraceShape, seed: number): { trace: Uint32Array; afterScan: Uint8Array } {
  const g = createGenerator('xoshiro128**', { seed });
  const perCycle = shape.period + shape.scanPages * shape.touchesPerPage;
  const n = perCycle * shape.scans + shape.period;
  const trace = new Uint32Array(n);
  const afterScan = new Uint8Array(n);
  let i = 0;
  for (let cycle = 0; cycle <= shape.scans; cycle++) {
    for (let k = 0; k < shape.period; k++, i++) {
      trace[i] = g.nextBelow(shape.hotPages);
      if (cycle > 0 && k < shape.period / 5) afterScan[i] = 1;
    }
    if (cycle === shape.scans) break;
    for (let p = 0; p < shape.scanPages; p++) {
      for (let t = 0; t < shape.touchesPerPage; t++, i++) trace[i] = shape.hotPages + p;
    }
  }
  return { trace, afterScan };
}

export interface PolicyCase {
  readonly label: string;
  readonly policy: ReplacementPolicy;
  readonly innodb_old_blocks_time: number;
}

const POLICIES: readonly PolicyCase[] = [
  { label: 'midpoint, old_blocks_time 1000', policy: 'midpoint', innodb_old_blocks_time: 1000 },
  { label: 'midpoint, old_blocks_time 0', policy: 'midpoint', innodb_old_blocks_time: 0 },
  { label: 'plain LRU', policy: 'lru', innodb_old_blocks_time: 0 },
  { label: 'CLOCK', policy: 'clock', innodb_old_blocks_time: 0 },
];

function replay(
  trace: Uint32Array,
  afterScan: Uint8Array,
  shape: ScanTraceShape,
  pageSize: number,
  device: MemoryDevice,
  c: PolicyCase,
): PolicyFigures {
  const clock = new FakeClock();
  const pool = new BufferPool({
    innodb_page_size: pageSize,
    innodb_buffer_pool_size: shape.frames * pageSize,
    policy: c.policy,
    innodb_old_blocks_time: c.innodb_old_blocks_time,
    linearReadAhead: false,
    device,
    now: clock.now,
  });
  let after = 0;
  let afterHits = 0;
  for (let i = 0; i < trace.length; i++) {
    const page = trace[i] as number;
    if (afterScan[i] === 1) {
      after++;
      if (pool.peek(0, page) >= 0) afterHits++;
    }
    pool.unfix(pool.fix(0, page, 0), 0);
    clock.advance(shape.msPerAccess);
  }
  const s = pool.stats();
  // Not closed: close() would close the shared device too; the pool is garbage once dropped.
  return {
    hitRatio: 1 - s.Innodb_buffer_pool_reads / s.Innodb_buffer_pool_read_requests,
    afterScanHitRatio: after === 0 ? 0 : afterHits / after,
    madeYoung: s.Innodb_buffer_pool_pages_made_young,
    notMadeYoung: s.Innodb_buffer_pool_pages_not_made_young,
    reads: s.Innodb_buffer_pool_reads,
  };
}

// ---------------------------------------------------------------------------------------------
// 2. Linear read-ahead on a full scan (simulated disk: modeled time is the same on any machine)
// ---------------------------------------------------------------------------------------------

function scanOnce(
  inner: MemoryDevice,
  pages: number,
  frames: number,
  pageSize: number,
  readAhead: boolean,
  lookups?: Uint32Array,
): ScanFigures {
  const disk = new SimulatedDevice(inner, 'hdd');
  const pool = new BufferPool({
    innodb_page_size: pageSize,
    innodb_buffer_pool_size: frames * pageSize,
    linearReadAhead: readAhead,
    device: disk,
  });
  for (let p = 0; p < pages; p++) {
    pool.unfix(pool.fix(0, p, 1), 1);
    // Another query's random lookup in the other half of the file moves the head between pages.
    if (lookups !== undefined) pool.unfix(pool.fix(0, pages + (lookups[p] as number), 1), 1);
  }
  const s = pool.stats();
  const d = disk.stats();
  return {
    modeledMs: d.modeledMs,
    requests: d.readRequests,
    positionings: d.positionings,
    readAhead: s.Innodb_buffer_pool_read_ahead,
    reads: s.Innodb_buffer_pool_reads,
    dataReads: s.Innodb_data_reads,
  };
}

// ---------------------------------------------------------------------------------------------
// 3. innodb_buffer_pool_instances 1 vs 8 with worker threads on one shared pool
// ---------------------------------------------------------------------------------------------

/** Working sets of the instances test on 2,048 frames: all cached, and four times the pool. */
const WORKING_SETS = [1024, 8192] as const;

async function instancesOnce(
  instances: number,
  workers: number,
  durationMs: number,
  seed: number,
  pages: number,
): Promise<InstancesFigures> {
  const pageSize = 4096;
  const frames = 2048;
  const device = deviceWithPages(pages, pageSize, { shared: true });
  const pool = new BufferPool({
    innodb_page_size: pageSize,
    innodb_buffer_pool_size: frames * pageSize,
    innodb_buffer_pool_instances: instances,
    device,
  });
  for (let p = 0; p < Math.min(pages, frames); p++) pool.unfix(pool.fix(0, p, 0), 0);
  const desc = pool.descriptor();
  const control = new SharedArrayBuffer(16);
  const c = new Int32Array(control);
  const started = Array.from({ length: workers }, (_, i) =>
    startWorker<{ ops: number }>('pool-worker', { desc, pages, seed: deriveSeed(seed, `w${i}`), control }),
  );
  while (Atomics.load(c, 0) < workers) await sleep(2);
  pool.resetStats();
  const before = pool.latchStats();
  const t0 = performance.now();
  Atomics.store(c, 1, 1);
  Atomics.notify(c, 1);
  await sleep(durationMs);
  Atomics.store(c, 2, 1);
  const results = await Promise.all(started.map((s) => s.result));
  const elapsed = performance.now() - t0;
  const after = pool.latchStats();
  const st = pool.stats();
  pool.close();
  const ops = results.reduce((t, r) => t + r.ops, 0);
  return {
    mops: ops / elapsed / 1000,
    hitRatio: 1 - st.Innodb_buffer_pool_reads / Math.max(1, st.Innodb_buffer_pool_read_requests),
    spinWaits: after.mutex.spinWaits - before.mutex.spinWaits,
    osWaits: after.mutex.osWaits - before.mutex.osWaits,
    rwSpinWaits: after.rwShared.spinWaits - before.rwShared.spinWaits,
  };
}

export async function measure(ctx: ExperimentContext): Promise<BufferPoolMeasurement> {
  const q = ctx.quick;
  const shape: ScanTraceShape = q
    ? {
        frames: 1024,
        hotPages: 600,
        scanPages: 3000,
        period: 12000,
        touchesPerPage: 4,
        scans: 2,
        msPerAccess: 0.05,
      }
    : {
        frames: 2048,
        hotPages: 1200,
        scanPages: 10000,
        period: 60000,
        touchesPerPage: 4,
        scans: 4,
        msPerAccess: 0.05,
      };
  const pageSize = 512;
  ctx.log(`buffer-pool: scan resistance, ${shape.frames} frames`);
  const { trace, afterScan } = scanTrace(shape, deriveSeed(ctx.seed, 'scan-trace'));
  const device = deviceWithPages(shape.hotPages + shape.scanPages, pageSize);
  const policies = POLICIES.map((c) => ({ ...c, ...replay(trace, afterScan, shape, pageSize, device, c) }));
  const opt = beladyHits(trace, shape.frames);
  let optHits = 0;
  let optAfter = 0;
  let optAfterHits = 0;
  for (let i = 0; i < trace.length; i++) {
    optHits += opt[i] as number;
    if (afterScan[i] === 1) {
      optAfter++;
      optAfterHits += opt[i] as number;
    }
  }
  const belady = {
    hitRatio: optHits / trace.length,
    afterScanHitRatio: optAfterHits / optAfter,
    hits: optHits,
  };

  ctx.log('buffer-pool: linear read-ahead on a scan');
  const scanPages = q ? 512 : 4096;
  const scanFrames = q ? 256 : 1024;
  const scanPageSize = 16384;
  const linked = deviceWithPages(2 * scanPages, scanPageSize, { linked: true });
  const lookups = Uint32Array.from({ length: scanPages }, (_, i) => i);
  const lg = createGenerator('xoshiro128**', { seed: deriveSeed(ctx.seed, 'lookups') });
  for (let i = lookups.length - 1; i > 0; i--) {
    const j = lg.nextBelow(i + 1);
    const t = lookups[i] as number;
    lookups[i] = lookups[j] as number;
    lookups[j] = t;
  }
  const on = scanOnce(linked, scanPages, scanFrames, scanPageSize, true);
  const off = scanOnce(linked, scanPages, scanFrames, scanPageSize, false);
  const mixedOn = scanOnce(linked, scanPages, scanFrames, scanPageSize, true, lookups);
  const mixedOff = scanOnce(linked, scanPages, scanFrames, scanPageSize, false, lookups);
  const rounds = q ? 3 : 5;
  const [cpuOn, cpuOff] = timeInterleaved(
    [
      () => void scanOnce(linked, scanPages, scanFrames, scanPageSize, true),
      () => void scanOnce(linked, scanPages, scanFrames, scanPageSize, false),
    ],
    rounds,
  );

  ctx.log('buffer-pool: instances 1 vs 8 with workers');
  const workerCounts = q ? [1, 2] : [1, 2, 4];
  const durationMs = q ? 60 : 400;
  const repeats = q ? 1 : 3;
  const instances: InstancesCell[] = [];
  for (const pages of WORKING_SETS)
    for (const workers of workerCounts)
      for (const n of [1, 8])
        instances.push({
          pages,
          instances: n,
          workers,
          samples: [],
          hitRatios: [],
          spinWaits: [],
          osWaits: [],
        });
  for (let r = 0; r < repeats; r++) {
    for (const cell of instances) {
      const m = await instancesOnce(cell.instances, cell.workers, durationMs, ctx.seed + r, cell.pages);
      cell.samples.push(m.mops);
      cell.hitRatios.push(m.hitRatio);
      cell.spinWaits.push(m.spinWaits);
      cell.osWaits.push(m.osWaits);
    }
  }

  return {
    settings: {
      shape,
      pageSize,
      policies: POLICIES,
      readAhead: { pages: scanPages, frames: scanFrames, pageSize: scanPageSize, rounds },
      instances: {
        workerCounts,
        durationMs,
        repeats,
        pageSize: 4096,
        frames: 2048,
        workingSets: WORKING_SETS,
      },
    },
    traceLength: trace.length,
    policies,
    belady,
    readAhead: { on, off, mixedOn, mixedOff, cpuOn, cpuOff },
    instances,
  };
}
