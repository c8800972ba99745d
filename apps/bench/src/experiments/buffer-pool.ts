import { medianOf } from '../internal/runs.js';
import { POSTS } from '../posts.js';
import {
  BufferPool,
  type MemoryDevice,
  type ReplacementPolicy,
  SimulatedDevice,
} from '@enginekit/buffer-pool';
import { createGenerator } from '@enginekit/prng';
import type { Experiment, ExperimentContext, ExperimentOutput } from '../experiment.js';
import { beladyHits } from '../internal/belady.js';
import { deviceWithPages, FakeClock } from '../internal/pages.js';
import { deriveSeed } from '../internal/seeds.js';
import { sleep, startWorker } from '../internal/workers.js';
import { round, spread, spreadPercent, timeInterleaved } from '../measure.js';
import type { Chart, Claim, Table } from '../result.js';

// ---------------------------------------------------------------------------------------------
// 1. Scan resistance and hit ratios against Belady's optimum
// ---------------------------------------------------------------------------------------------

interface ScanTraceShape {
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

interface PolicyCase {
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
): { hitRatio: number; afterScanHitRatio: number; madeYoung: number; notMadeYoung: number; reads: number } {
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
) {
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

function workingSetLabel(pages: number): string {
  return pages <= 2048 ? `${pages} pages, all cached` : `${pages} pages, mostly misses`;
}

async function instancesOnce(
  instances: number,
  workers: number,
  durationMs: number,
  seed: number,
  pages: number,
) {
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

async function run(ctx: ExperimentContext): Promise<ExperimentOutput> {
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
  const policyRows = POLICIES.map((c) => ({ ...c, ...replay(trace, afterScan, shape, pageSize, device, c) }));
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
  const belady = { hitRatio: optHits / trace.length, afterScanHitRatio: optAfterHits / optAfter };

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
  const withRa = scanOnce(linked, scanPages, scanFrames, scanPageSize, true);
  const withoutRa = scanOnce(linked, scanPages, scanFrames, scanPageSize, false);
  const mixedRa = scanOnce(linked, scanPages, scanFrames, scanPageSize, true, lookups);
  const mixedNoRa = scanOnce(linked, scanPages, scanFrames, scanPageSize, false, lookups);
  const rounds = q ? 3 : 5;
  const [cpuRa, cpuNoRa] = timeInterleaved(
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
  const inst: {
    pages: number;
    instances: number;
    workers: number;
    samples: number[];
    hitRatios: number[];
    spinWaits: number[];
    osWaits: number[];
  }[] = [];
  for (const pages of WORKING_SETS)
    for (const workers of workerCounts)
      for (const instances of [1, 8])
        inst.push({ pages, instances, workers, samples: [], hitRatios: [], spinWaits: [], osWaits: [] });
  for (let r = 0; r < repeats; r++) {
    for (const cell of inst) {
      const m = await instancesOnce(cell.instances, cell.workers, durationMs, ctx.seed + r, cell.pages);
      cell.samples.push(m.mops);
      cell.hitRatios.push(m.hitRatio);
      cell.spinWaits.push(m.spinWaits);
      cell.osWaits.push(m.osWaits);
    }
  }
  const instRows = inst.map((cell) => {
    const s = spread(cell.samples);
    const one = inst.find((o) => o.pages === cell.pages && o.workers === cell.workers && o.instances === 1);
    const base = one ? spread(one.samples).median : s.median;
    return {
      workingSet: workingSetLabel(cell.pages),
      pages: cell.pages,
      hitRatioPct: round(spread(cell.hitRatios).median * 100, 1),
      instances: cell.instances,
      workers: cell.workers,
      mops: round(s.median, 2),
      min: round(s.min, 2),
      max: round(s.max, 2),
      spreadPct: round(spreadPercent(s), 1),
      ratioTo1: round(s.median / base, 2),
      spinWaits: spread(cell.spinWaits).median,
      osWaits: spread(cell.osWaits).median,
    };
  });

  const pct = (x: number): number => round(x * 100, 2);
  const m1000 = policyRows[0];
  const m0 = policyRows[1];
  const claims: Claim[] = [
    {
      text: 'innodb_old_blocks_time keeps a full scan from flushing the hot pages',
      post: "a scan's pages enter the old sublist and, with innodb_old_blocks_time, leave it without displacing the working set (MySQL 5.1 plugin / 5.5 midpoint insertion)",
      ours: `hot-set hit ratio just after a scan: ${pct(m1000?.afterScanHitRatio ?? 0)} % with 1000 ms, ${pct(m0?.afterScanHitRatio ?? 0)} % with 0, Belady ${pct(belady.afterScanHitRatio)} %`,
      holds: m1000 !== undefined && m0 !== undefined && m1000.afterScanHitRatio > m0.afterScanHitRatio,
    },
    {
      text: 'linear read-ahead turns a scan into few large reads',
      post: 'high Innodb_buffer_pool_read_ahead when the access pattern is sequential, none when it is not',
      ours: `${scanPages} pages scanned: ${withRa.readAhead} read ahead in ${withRa.requests} requests vs ${withoutRa.requests} without; with a random lookup between scanned pages ${round(mixedRa.modeledMs, 0)} ms modeled on hdd vs ${round(mixedNoRa.modeledMs, 0)} ms without read-ahead`,
      holds:
        withRa.readAhead > 0 &&
        withRa.requests < withoutRa.requests &&
        mixedRa.modeledMs < mixedNoRa.modeledMs,
    },
    {
      text: 'several pool instances split the pool mutex',
      post: 'the sysbench runs used 16 buffer pool instances for read-only (one for read-write, where instances raised write latency)',
      ours: instRows
        .filter((r) => r.instances === 8)
        .map((r) => `${r.workingSet}, ${r.workers} worker(s): 8 instances ${r.ratioTo1}× of 1`)
        .join('; '),
      holds: null,
    },
  ];

  const tables: Table[] = [
    {
      id: 'scan-resistance',
      title: `Hit ratio: hot set of ${shape.hotPages} pages + ${shape.scans} full scans of ${shape.scanPages.toLocaleString('en-US')} pages, ${shape.frames} frames, ${trace.length.toLocaleString('en-US')} accesses`,
      columns: [
        { key: 'label', label: 'policy' },
        { key: 'hit', label: 'hit ratio %', digits: 2 },
        { key: 'after', label: 'hot hits after scan %', digits: 2 },
        { key: 'reads', label: 'page reads' },
        { key: 'young', label: 'made young' },
        { key: 'notYoung', label: 'not made young' },
      ],
      rows: [
        ...policyRows.map((r) => ({
          label: r.label,
          hit: pct(r.hitRatio),
          after: pct(r.afterScanHitRatio),
          reads: r.reads,
          young: r.madeYoung,
          notYoung: r.notMadeYoung,
        })),
        {
          label: "Belady's MIN (offline optimum)",
          hit: pct(belady.hitRatio),
          after: pct(belady.afterScanHitRatio),
          reads: trace.length - optHits,
          young: null,
          notYoung: null,
        },
      ],
      note: '"Hot hits after scan": hot-set accesses in the first fifth of each period after a scan that found their page cached.',
    },
    {
      id: 'read-ahead',
      title: `Full scan of ${scanPages.toLocaleString('en-US')} linked 16 KiB pages through ${scanFrames} frames, simulated hdd`,
      columns: [
        { key: 'label', label: 'configuration' },
        { key: 'modeledMs', label: 'modeled I/O ms', digits: 1 },
        { key: 'requests', label: 'read requests' },
        { key: 'positionings', label: 'seeks' },
        { key: 'readAhead', label: 'Innodb_buffer_pool_read_ahead' },
        { key: 'reads', label: 'Innodb_buffer_pool_reads' },
        { key: 'cpuMs', label: 'CPU ms (median)', digits: 2 },
        { key: 'cpuSpread', label: 'spread %', digits: 1 },
      ],
      rows: [
        {
          label: 'linear read-ahead on',
          ...withRa,
          cpuMs: round(cpuRa?.median ?? 0, 2),
          cpuSpread: round(cpuRa ? spreadPercent(cpuRa) : 0, 1),
        },
        {
          label: 'linear read-ahead off',
          ...withoutRa,
          cpuMs: round(cpuNoRa?.median ?? 0, 2),
          cpuSpread: round(cpuNoRa ? spreadPercent(cpuNoRa) : 0, 1),
        },
        { label: 'scan + random lookups, read-ahead on', ...mixedRa, cpuMs: null, cpuSpread: null },
        { label: 'scan + random lookups, read-ahead off', ...mixedNoRa, cpuMs: null, cpuSpread: null },
      ],
      note: `Alone, a scan streams either way (the head is already there); with another query's lookups between its pages, read-ahead saves the repositioning: modeled I/O off/on ${round(mixedNoRa.modeledMs / mixedRa.modeledMs, 2)}×.`,
    },
    {
      id: 'instances',
      title: `innodb_buffer_pool_instances 1 vs 8: workers fixing random pages (S latch) on 2,048 frames, ${durationMs} ms per run, ${medianOf(repeats)}`,
      columns: [
        { key: 'workingSet', label: 'working set' },
        { key: 'hitRatioPct', label: 'hit ratio %', digits: 1 },
        { key: 'workers', label: 'workers' },
        { key: 'instances', label: 'instances' },
        { key: 'mops', label: 'M fixes/s', digits: 2 },
        { key: 'min', label: 'min', digits: 2 },
        { key: 'max', label: 'max', digits: 2 },
        { key: 'spreadPct', label: 'spread %', digits: 1 },
        { key: 'ratioTo1', label: '× 1 instance', digits: 2 },
        { key: 'spinWaits', label: 'mutex spin waits' },
        { key: 'osWaits', label: 'mutex OS waits' },
      ],
      rows: instRows,
      note: 'On the all-hit set the hit path runs, which takes no instance mutex; on the larger set most fixes miss, and every miss takes its instance mutex to find a victim and enter the page.',
    },
  ];

  const charts: Chart[] = [
    {
      id: 'hit-ratios',
      kind: 'bars',
      title: 'Hit ratio % per policy (overall and just after scans)',
      xLabel: 'policy',
      yLabel: '%',
      series: [
        {
          name: 'overall',
          points: [
            ...policyRows.map((r) => ({ x: r.label, y: pct(r.hitRatio) })),
            { x: 'Belady', y: pct(belady.hitRatio) },
          ],
        },
        {
          name: 'hot, after a scan',
          points: [
            ...policyRows.map((r) => ({ x: r.label, y: pct(r.afterScanHitRatio) })),
            { x: 'Belady', y: pct(belady.afterScanHitRatio) },
          ],
        },
      ],
    },
    {
      id: 'read-ahead-requests',
      kind: 'bars',
      title: 'Scan with and without linear read-ahead: device read requests',
      xLabel: 'configuration',
      yLabel: 'read requests',
      series: [
        {
          name: 'read-ahead on',
          points: [
            { x: 'scan alone', y: withRa.requests },
            { x: 'scan + random lookups', y: mixedRa.requests },
          ],
        },
        {
          name: 'read-ahead off',
          points: [
            { x: 'scan alone', y: withoutRa.requests },
            { x: 'scan + random lookups', y: mixedNoRa.requests },
          ],
        },
      ],
    },
    {
      id: 'read-ahead-modeled',
      kind: 'bars',
      title: 'Scan with and without linear read-ahead: modeled I/O ms on hdd',
      xLabel: 'configuration',
      yLabel: 'modeled ms',
      series: [
        {
          name: 'read-ahead on',
          points: [
            { x: 'scan alone', y: round(withRa.modeledMs, 1) },
            { x: 'scan + random lookups', y: round(mixedRa.modeledMs, 1) },
          ],
        },
        {
          name: 'read-ahead off',
          points: [
            { x: 'scan alone', y: round(withoutRa.modeledMs, 1) },
            { x: 'scan + random lookups', y: round(mixedNoRa.modeledMs, 1) },
          ],
        },
      ],
    },
    ...WORKING_SETS.map(
      (pages): Chart => ({
        id: `instances-scaling-${pages}`,
        kind: 'lines',
        title: `M fixes/s vs workers, 1 and 8 instances: ${workingSetLabel(pages)}`,
        xLabel: 'workers',
        yLabel: 'M fixes/s',
        series: [1, 8].map((instances) => ({
          name: `${instances} instance${instances === 1 ? '' : 's'}`,
          points: instRows
            .filter((r) => r.pages === pages && r.instances === instances)
            .map((r) => ({ x: r.workers, y: r.mops, low: r.min, high: r.max })),
        })),
      }),
    ),
  ];

  return {
    config: {
      scanResistance: { ...shape, pageSize, policies: POLICIES },
      readAhead: { pages: scanPages, frames: scanFrames, pageSize: scanPageSize, disk: 'hdd', rounds },
      instances: {
        workerCounts,
        durationMs,
        repeats,
        pageSize: 4096,
        frames: 2048,
        workingSets: WORKING_SETS,
      },
    },
    claims,
    tables,
    charts,
    data: {
      policies: policyRows,
      belady,
      readAhead: {
        on: withRa,
        off: withoutRa,
        mixedOn: mixedRa,
        mixedOff: mixedNoRa,
        cpuOn: cpuRa,
        cpuOff: cpuNoRa,
      },
      instances: instRows,
    },
  };
}

export const bufferPool: Experiment = {
  name: 'buffer-pool',
  title: 'Buffer pool: scan resistance, read-ahead, instances',
  post: {
    title: 'Read-ahead under sequential access (the MRR post) and buffer pool instances (the sysbench post)',
    sources: [POSTS.mrr, POSTS.sysbench],
    claim:
      'When rows are fetched in page order InnoDB notices the sequential pattern and reads ahead (high Innodb_buffer_pool_read_ahead); read-only sysbench was run with 16 pool instances. The midpoint LRU with innodb_old_blocks_time is what keeps such scans from evicting the working set.',
  },
  run,
};
