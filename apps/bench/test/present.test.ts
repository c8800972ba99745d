import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LatchesMeasurement, LatchRun } from '../src/experiments/latches/measure.js';
import { present as presentLatches } from '../src/experiments/latches/present.js';
import type { PrngBiasMeasurement } from '../src/experiments/prng-bias/measure.js';
import { present as presentPrngBias } from '../src/experiments/prng-bias/present.js';
import type { Spread } from '../src/measure.js';
import type { Table } from '../src/result.js';

// present.ts imports only types from measure.ts, so loading it must never load the workload: if
// either measure module were loaded, these factories would throw.
vi.mock('../src/experiments/prng-bias/measure.js', () => {
  throw new Error('prng-bias present loaded its measure module');
});
vi.mock('../src/experiments/latches/measure.js', () => {
  throw new Error('latches present loaded its measure module');
});

afterEach(() => {
  vi.restoreAllMocks();
});

function table(out: { tables: readonly Table[] }, id: string): Table {
  const t = out.tables.find((x) => x.id === id);
  if (t === undefined) throw new Error(`no table ${id}`);
  return t;
}

const spreadOf = (samples: number[]): Spread => {
  const s = [...samples].sort((a, b) => a - b);
  return {
    median: s[s.length >> 1] as number,
    min: s[0] as number,
    max: s[s.length - 1] as number,
    runs: s.length,
    samples,
  };
};

/**
 * Runs `present` on `m` with the clock watched: the same output twice, the same output from the
 * measurement after a trip through JSON, the measurement left as it was, no clock read.
 */
function checkPure<M, O>(present: (m: M) => O, m: M): O {
  const before = JSON.stringify(m);
  const clock = vi.spyOn(performance, 'now');
  const first = present(m);
  const second = present(m);
  const fromJson = present(JSON.parse(before) as M);
  expect(clock).not.toHaveBeenCalled();
  expect(second).toEqual(first);
  expect(JSON.stringify(fromJson)).toBe(JSON.stringify(first));
  expect(JSON.stringify(m)).toBe(before);
  return first;
}

describe('prng-bias present', () => {
  // Four generators, 2 ANALYZE runs of 2 dives each: the legacy one stuck on record 2, the fix
  // reaching all three records.
  const m: PrngBiasMeasurement = {
    settings: {
      analyzeRuns: 2,
      divesPerRun: 2,
      leafRecords: 248,
      residueDraws: 100,
      moduli: [2, 3],
      timingDraws: 1000,
      timingRounds: 3,
      generators: [
        { label: 'page_rnd, 64-bit ulint', name: 'innodb-page-rnd', options: { wordBits: 64 } },
        { label: 'page_rnd, 32-bit ulint', name: 'innodb-page-rnd', options: { wordBits: 32 } },
        { label: 'ut_rnd_gen_ulint', name: 'innodb-ut-rnd', options: {} },
        { label: 'LCG fix (page_cur_lcg_prng)', name: 'innodb-lcg64', options: { seed: 7 } },
      ],
    },
    dives: [
      {
        generator: 'page_rnd, 64-bit ulint',
        picks: [2, 2, 2, 2],
        counts: [0, 0, 4],
        distinctRecords: 1,
        identicalRuns: true,
      },
      {
        generator: 'page_rnd, 32-bit ulint',
        picks: [2, 2, 2, 2],
        counts: [0, 0, 4],
        distinctRecords: 1,
        identicalRuns: true,
      },
      {
        generator: 'ut_rnd_gen_ulint',
        picks: [0, 2, 1, 2],
        counts: [1, 1, 2],
        distinctRecords: 3,
        identicalRuns: false,
      },
      {
        generator: 'LCG fix (page_cur_lcg_prng)',
        picks: [1, 0, 2, 0],
        counts: [2, 1, 1],
        distinctRecords: 3,
        identicalRuns: false,
      },
    ],
    residues: [
      'page_rnd, 64-bit ulint',
      'page_rnd, 32-bit ulint',
      'ut_rnd_gen_ulint',
      'LCG fix (page_cur_lcg_prng)',
    ].map((generator, i) => ({
      generator,
      perModulus: [
        { modulus: 2, classesSeen: 2, pValue: 0.5, passed: true },
        { modulus: 3, classesSeen: i < 2 ? 1 : 3, pValue: i < 2 ? 0 : 0.4, passed: i >= 2 },
      ],
    })),
    residue32: Array.from({ length: 40 }, (_, k) => (k < 37 ? 2 : 1)),
    residue64: Array.from({ length: 40 }, () => 2),
    wrap32: { call: '38', residueAfter: 1 },
    wrap64: { call: '12345678901234567890', residueAfter: 1 },
    times: [spreadOf([1, 2, 3]), spreadOf([4, 4, 4]), spreadOf([10, 12, 11]), spreadOf([2, 2, 3])],
  };

  it('is pure: the same tables, charts and claims from the same measurement, no clock read', () => {
    const out = checkPure(presentPrngBias, m);
    expect(out.claims.map((c) => c.holds)).toEqual([true, true, true]);
    expect(out.claims[1]?.ours).toContain('first changes at call 38 (to 1)');
    expect(out.claims[1]?.ours).toContain('12,345,678,901,234,567,890');
    expect(table(out, 'dives').rows[0]).toMatchObject({
      first: '2 2 2 2',
      r0: 0,
      r2: 4,
      distinct: 1,
      identical: true,
    });
    expect(table(out, 'residues').rows[0]).toEqual({
      generator: 'page_rnd, 64-bit ulint',
      m2: '2/2',
      m3: '1/3 ✗',
    });
    expect(table(out, 'wrap').rows).toEqual([
      { word: '32-bit', call: 38, before: 2, after: 1 },
      { word: '64-bit', call: '12,345,678,901,234,567,890', before: 2, after: 1 },
    ]);
    // 2 ms over 1000 draws is 2000 ns a draw; without xoshiro128** in the list the ratio's base is 1 ms.
    expect(table(out, 'timing').rows[0]).toMatchObject({
      nsPerDraw: 2000,
      minNs: 1000,
      maxNs: 3000,
      ratioToXoshiro: 2,
    });
    expect(out.config).toMatchObject({ analyzeRuns: 2, divesPerRun: 2, rootRecords: 3, timingDraws: 1000 });
    expect(out.data).toMatchObject({ wrap32: { call: '38' }, wrap64: { call: '12345678901234567890' } });
  });
});

describe('latches present', () => {
  const counts = (osWaits: number): LatchRun['counts'] => ({
    mutex: { spinWaits: 1, spinRounds: 30, osWaits },
    rwShared: { spinWaits: 2, spinRounds: 40, osWaits: 1 },
    rwExcl: { spinWaits: 3, spinRounds: 50, osWaits: 2 },
    reservations: 0,
    signals: 0,
  });
  const atomics = {
    label: 'RWLock (atomics), 90 % S',
    kind: 'RWLock',
    writePercent: 10,
    innodb_sync_spin_loops: 30,
    innodb_spin_wait_delay: 6,
  } as const;
  const legacy = {
    label: 'LegacyRWLock (5.1), 90 % S',
    kind: 'LegacyRWLock',
    writePercent: 10,
    innodb_sync_spin_loops: 20,
    innodb_spin_wait_delay: 5,
  } as const;
  // Two locks at 1 and 2 workers, three rounds each.
  const m: LatchesMeasurement = {
    settings: { cases: [atomics, legacy], workerCounts: [1, 2], durationMs: 40, repeats: 3, warmup: 100 },
    cells: [
      {
        lockCase: atomics,
        workers: 1,
        runs: [9e6, 10e6, 11e6].map((opsPerSec) => ({ opsPerSec, counts: counts(opsPerSec / 1e6) })),
      },
      {
        lockCase: atomics,
        workers: 2,
        runs: [6e6, 8e6, 7e6].map((opsPerSec) => ({ opsPerSec, counts: counts(0) })),
      },
      {
        lockCase: legacy,
        workers: 1,
        runs: [5e6, 4e6, 6e6].map((opsPerSec) => ({ opsPerSec, counts: counts(0) })),
      },
      {
        lockCase: legacy,
        workers: 2,
        runs: [2e6, 2e6, 2e6].map((opsPerSec) => ({ opsPerSec, counts: counts(5) })),
      },
    ],
  };

  it('is pure: the same tables, charts and claims from the same measurement, no clock read', () => {
    const out = checkPure(presentLatches, m);
    const rows = table(out, 'throughput').rows;
    // M ops/s: median and min–max of the rounds; the counters are those of the median run.
    expect(rows[0]).toMatchObject({
      lock: atomics.label,
      workers: 1,
      mops: 10,
      min: 9,
      max: 11,
      spreadPct: 20,
    });
    expect(rows[0]).toMatchObject({ mutexOsWaits: 10, rwSpinWaits: 5, rwRounds: 90, rwOsWaits: 3 });
    // atomics ÷ legacy per worker count and mix; no 100 % S cells here, so those ratios are 0.
    expect(table(out, 'ratios').rows).toEqual([
      { workers: 1, mix: '90 % S', ratio: 2 },
      { workers: 1, mix: '100 % S', ratio: 0 },
      { workers: 2, mix: '90 % S', ratio: 3.5 },
      { workers: 2, mix: '100 % S', ratio: 0 },
    ]);
    expect(out.claims).toHaveLength(1);
    expect(out.claims[0]?.holds).toBeNull();
    expect(out.claims[0]?.ours).toContain('best 3.5× at 2 workers, 90 % S');
    expect(out.charts.map((c) => c.id)).toEqual(['latch-scaling', 'latch-os-waits']);
    expect(out.charts[1]?.title).toBe('OS waits at 2 workers (median run)');
    expect(out.config).toEqual({
      cases: [atomics, legacy],
      workerCounts: [1, 2],
      durationMs: 40,
      repeats: 3,
      warmup: 100,
    });
  });
});
