import type { ExperimentOutput } from '../../experiment.js';
import { medianOf } from '../../internal/runs.js';
import { round, spread, spreadPercent } from '../../measure.js';
import type { Chart, Claim, Table } from '../../result.js';
import type { BufferPoolMeasurement } from './measure.js';

function workingSetLabel(pages: number): string {
  return pages <= 2048 ? `${pages} pages, all cached` : `${pages} pages, mostly misses`;
}

/** The claims, tables and charts of `buffer-pool`, computed from its measurement alone. */
export function present(m: BufferPoolMeasurement): ExperimentOutput {
  const { shape, pageSize, policies } = m.settings;
  const { pages: scanPages, frames: scanFrames, pageSize: scanPageSize, rounds } = m.settings.readAhead;
  const { workerCounts, durationMs, repeats, workingSets } = m.settings.instances;
  const policyRows = m.policies;
  const belady = { hitRatio: m.belady.hitRatio, afterScanHitRatio: m.belady.afterScanHitRatio };
  const optHits = m.belady.hits;
  const {
    on: withRa,
    off: withoutRa,
    mixedOn: mixedRa,
    mixedOff: mixedNoRa,
    cpuOn: cpuRa,
    cpuOff: cpuNoRa,
  } = m.readAhead;
  const inst = m.instances;
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
      title: `Hit ratio: hot set of ${shape.hotPages} pages + ${shape.scans} full scans of ${shape.scanPages.toLocaleString('en-US')} pages, ${shape.frames} frames, ${m.traceLength.toLocaleString('en-US')} accesses`,
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
          reads: m.traceLength - optHits,
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
    ...workingSets.map(
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
      scanResistance: { ...shape, pageSize, policies },
      readAhead: { pages: scanPages, frames: scanFrames, pageSize: scanPageSize, disk: 'hdd', rounds },
      instances: {
        workerCounts,
        durationMs,
        repeats,
        pageSize: m.settings.instances.pageSize,
        frames: m.settings.instances.frames,
        workingSets,
      },
    },
    claims,
    tables,
    charts,
    data: {
      policies: policyRows,
      belady,
      readAhead: m.readAhead,
      instances: instRows,
    },
  };
}
