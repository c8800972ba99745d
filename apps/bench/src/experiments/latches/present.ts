import type { ExperimentOutput } from '../../experiment.js';
import { medianRange, medianOf as runsText } from '../../internal/runs.js';
import { round, spread, spreadPercent } from '../../measure.js';
import type { Chart, Claim, Table } from '../../result.js';
import type { LatchesMeasurement, LatchRun } from './measure.js';

const medianOf = (xs: readonly number[]): number => spread(xs).median;

/** The claims, tables and charts of `latches`, computed from its measurement alone. */
export function present(m: LatchesMeasurement): ExperimentOutput {
  const { cases, workerCounts, durationMs, repeats, warmup } = m.settings;
  const cells = m.cells;
  const rows = cells.map((cell) => {
    const s = spread(cell.runs.map((run) => run.opsPerSec / 1e6));
    // Counters of the run with the median throughput.
    const sorted = [...cell.runs].sort((a, b) => a.opsPerSec - b.opsPerSec);
    const mid = sorted[sorted.length >> 1] as LatchRun;
    const k = mid.counts;
    const rw = {
      spinWaits: k.rwShared.spinWaits + k.rwExcl.spinWaits,
      spinRounds: k.rwShared.spinRounds + k.rwExcl.spinRounds,
      osWaits: k.rwShared.osWaits + k.rwExcl.osWaits,
    };
    return {
      lock: cell.lockCase.label,
      kind: cell.lockCase.kind,
      writePercent: cell.lockCase.writePercent,
      workers: cell.workers,
      mops: round(s.median, 3),
      min: round(s.min, 3),
      max: round(s.max, 3),
      spreadPct: round(spreadPercent(s), 1),
      mutexSpinWaits: k.mutex.spinWaits,
      mutexRounds: k.mutex.spinRounds,
      mutexOsWaits: k.mutex.osWaits,
      rwSpinWaits: rw.spinWaits,
      rwRounds: rw.spinRounds,
      rwOsWaits: rw.osWaits,
    };
  });
  // Ratio atomics / legacy from the same rounds, per mix and worker count.
  const ratios = workerCounts.flatMap((workers) =>
    [10, 0].map((writePercent) => {
      const a = cells.find(
        (c) =>
          c.workers === workers && c.lockCase.kind === 'RWLock' && c.lockCase.writePercent === writePercent,
      );
      const l = cells.find(
        (c) =>
          c.workers === workers &&
          c.lockCase.kind === 'LegacyRWLock' &&
          c.lockCase.writePercent === writePercent,
      );
      const ratio =
        a && l ? medianOf(a.runs.map((r) => r.opsPerSec)) / medianOf(l.runs.map((r) => r.opsPerSec)) : 0;
      return { workers, mix: `${100 - writePercent} % S`, ratio: round(ratio, 2) };
    }),
  );
  const best = ratios.reduce((b, r) => (r.ratio > b.ratio ? r : b), { workers: 0, mix: '', ratio: 0 });
  const claims: Claim[] = [
    {
      text: 'rw-locks built on atomic instructions scale better than the mutex-guarded rw-lock they replaced',
      post: "InnoDB Plugin 1.0.3 with the atomics patch held its join throughput as users grew where 5.1's built-in InnoDB declined; about 12 % more DBT2 throughput at 64 users and up to 60 % more on modified sysbench",
      ours: `atomics RWLock vs LegacyRWLock, same rounds: ${ratios.map((r) => `${r.workers}w ${r.mix} ${r.ratio}×`).join(', ')} (best ${best.ratio}× at ${best.workers} workers, ${best.mix})`,
      holds: null,
    },
  ];
  const tables: Table[] = [
    {
      id: 'throughput',
      title: `Lock + tiny critical section + unlock, ${durationMs} ms per run, ${runsText(repeats, 'interleaved round')} (M ops/s, all workers together)`,
      columns: [
        { key: 'lock', label: 'lock' },
        { key: 'workers', label: 'workers' },
        { key: 'mops', label: 'M ops/s', digits: 3 },
        { key: 'min', label: 'min', digits: 3 },
        { key: 'max', label: 'max', digits: 3 },
        { key: 'spreadPct', label: 'spread %', digits: 1 },
        { key: 'mutexSpinWaits', label: 'mutex spins' },
        { key: 'mutexRounds', label: 'mutex rounds' },
        { key: 'mutexOsWaits', label: 'mutex OS waits' },
        { key: 'rwSpinWaits', label: 'RW spins' },
        { key: 'rwRounds', label: 'RW rounds' },
        { key: 'rwOsWaits', label: 'RW OS waits' },
      ],
      rows,
      note: 'Counters are the SEMAPHORES figures of the median run (RW columns sum RW-shared and RW-excl). The legacy lock counts its inner mutex under "mutex".',
    },
    {
      id: 'ratios',
      title: 'Atomics RWLock ÷ LegacyRWLock throughput (same rounds)',
      columns: [
        { key: 'workers', label: 'workers' },
        { key: 'mix', label: 'mix' },
        { key: 'ratio', label: '× legacy', digits: 2 },
      ],
      rows: ratios,
    },
  ];
  const most = workerCounts[workerCounts.length - 1];
  const charts: Chart[] = [
    {
      id: 'latch-scaling',
      kind: 'lines',
      title: `Throughput vs workers (M ops/s, ${medianRange(repeats)})`,
      xLabel: 'workers',
      yLabel: 'M ops/s',
      series: cases.map((c) => ({
        name: c.label,
        points: rows
          .filter((r) => r.lock === c.label)
          .map((r) => ({ x: r.workers, y: r.mops, low: r.min, high: r.max })),
      })),
    },
    {
      id: 'latch-os-waits',
      kind: 'bars',
      title: `OS waits at ${most} workers (${repeats === 1 ? 'one run' : 'median run'})`,
      xLabel: 'lock',
      yLabel: 'OS waits',
      series: [
        {
          name: 'mutex OS waits',
          points: rows.filter((r) => r.workers === most).map((r) => ({ x: r.lock, y: r.mutexOsWaits })),
        },
        {
          name: 'RW OS waits',
          points: rows.filter((r) => r.workers === most).map((r) => ({ x: r.lock, y: r.rwOsWaits })),
        },
      ],
    },
  ];
  return {
    config: { cases, workerCounts, durationMs, repeats, warmup },
    claims,
    tables,
    charts,
    data: { rows, ratios },
  };
}
