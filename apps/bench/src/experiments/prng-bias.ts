import { POSTS } from '../posts.js';
import {
  createGenerator,
  type GeneratorName,
  type GeneratorOptions,
  PAGE_RND_START,
  PAGE_RND_STEP,
} from '@enginekit/prng';
import { residueTest } from '@enginekit/prng/quality';
import type { Experiment, ExperimentContext, ExperimentOutput } from '../experiment.js';
import { deriveSeed } from '../internal/seeds.js';
import { round, spreadPercent, timeInterleaved } from '../measure.js';
import type { Chart, Claim, Table } from '../result.js';

interface GeneratorCase {
  readonly label: string;
  readonly name: GeneratorName;
  readonly options: GeneratorOptions;
}

/** The generators compared: InnoDB's three, page_rnd at both word widths, and two modern ones. */
function cases(seed: number): GeneratorCase[] {
  return [
    { label: 'page_rnd, 64-bit ulint', name: 'innodb-page-rnd', options: { wordBits: 64 } },
    { label: 'page_rnd, 32-bit ulint', name: 'innodb-page-rnd', options: { wordBits: 32 } },
    { label: 'ut_rnd_gen_ulint', name: 'innodb-ut-rnd', options: {} },
    {
      label: 'LCG fix (page_cur_lcg_prng)',
      name: 'innodb-lcg64',
      options: { seed: deriveSeed(seed, 'lcg') },
    },
    { label: 'xoshiro128**', name: 'xoshiro128**', options: { seed: deriveSeed(seed, 'xoshiro') } },
    { label: 'pcg32', name: 'pcg32', options: { seed: deriveSeed(seed, 'pcg32') } },
  ];
}

/** First call k (1-based) at which `start + k·step` has wrapped the word, and its residue mod 3. */
function firstWrap(bits: 32 | 64): { call: bigint; residueAfter: bigint } {
  const word = 1n << BigInt(bits);
  const start = BigInt(PAGE_RND_START);
  const step = BigInt(PAGE_RND_STEP);
  const call = (word - start + step - 1n) / step;
  return { call, residueAfter: (start + call * step - word) % 3n };
}

async function run(ctx: ExperimentContext): Promise<ExperimentOutput> {
  const analyzeRuns = 10;
  const divesPerRun = 8;
  const leafRecords = 248;
  const residueDraws = ctx.quick ? 6_000 : 300_000;
  const timingDraws = ctx.quick ? 20_000 : 1_000_000;
  const timingRounds = ctx.quick ? 3 : 7;
  const gens = cases(ctx.seed);

  // 1. Dives: one generator object per case across all runs (the C static), each dive drawing the
  // root record among 3 and then a record of the leaf, as btr_cur_open_at_rnd_pos does.
  const dives = gens.map((g) => {
    const gen = createGenerator(g.name, g.options);
    const picks: number[] = [];
    const runs: string[] = [];
    for (let r = 0; r < analyzeRuns; r++) {
      const run: number[] = [];
      for (let d = 0; d < divesPerRun; d++) {
        const root = gen.nextBelow(3);
        gen.nextBelow(leafRecords);
        picks.push(root);
        run.push(root);
      }
      runs.push(run.join(','));
    }
    const counts = [0, 1, 2].map((k) => picks.filter((p) => p === k).length);
    return {
      generator: g.label,
      picks,
      counts,
      distinctRecords: counts.filter((c) => c > 0).length,
      identicalRuns: runs.every((s) => s === runs[0]),
    };
  });

  // 2. Residues of nextBelow(m), m = 2..8, per generator (fresh generators, same seeds).
  const moduli = [2, 3, 4, 5, 6, 7, 8];
  const residues = gens.map((g) => {
    const perModulus = moduli.map((m) => {
      const t = residueTest(createGenerator(g.name, g.options), m, { samples: residueDraws });
      const seen = t.detail.replace(/^classes seen: \{|\}$/g, '');
      return {
        modulus: m,
        classesSeen: seen === '' ? 0 : seen.split(',').length,
        pValue: t.pValue,
        passed: t.passed,
      };
    });
    return { generator: g.label, perModulus };
  });

  // 3. page_rnd's residue mod 3 per call with 32- and 64-bit words, and where each first wraps.
  const calls = 60;
  const w32 = createGenerator('innodb-page-rnd', { wordBits: 32 }) as unknown as { nextWord(): bigint };
  const w64 = createGenerator('innodb-page-rnd', { wordBits: 64 }) as unknown as { nextWord(): bigint };
  const residue32: number[] = [];
  const residue64: number[] = [];
  for (let k = 0; k < calls; k++) {
    residue32.push(Number(w32.nextWord() % 3n));
    residue64.push(Number(w64.nextWord() % 3n));
  }
  const firstChange32 = residue32.findIndex((r) => r !== 2) + 1;
  const wrap32 = firstWrap(32);
  const wrap64 = firstWrap(64);

  // 4. Cost of one draw, nextBelow(3), interleaved rounds; ratio to xoshiro128** from the same rounds.
  let sink = 0;
  const timers = gens.map((g) => {
    const gen = createGenerator(g.name, g.options);
    return () => {
      for (let i = 0; i < timingDraws; i++) sink += gen.nextBelow(3);
    };
  });
  const times = timeInterleaved(timers, timingRounds);
  if (sink < 0) throw new Error('unreachable');
  const base = times[gens.findIndex((g) => g.name === 'xoshiro128**')]?.median ?? 1;
  const timing = gens.map((g, i) => {
    const t = times[i] ?? { median: 0, min: 0, max: 0, runs: 0, samples: [] };
    return {
      generator: g.label,
      nsPerDraw: round((t.median * 1e6) / timingDraws, 2),
      minNs: round((t.min * 1e6) / timingDraws, 2),
      maxNs: round((t.max * 1e6) / timingDraws, 2),
      spreadPct: round(spreadPercent(t), 1),
      ratioToXoshiro: round(t.median / base, 2),
    };
  });

  const legacy = dives[0];
  const fix = dives[3];
  const claims: Claim[] = [
    {
      text: 'page_rnd is always 2 mod 3, so the dives into a 3-record root all pick one record',
      post: 'every value left remainder 2 when divided by 3; the 8 sampled pages were one page, in every ANALYZE run (the post calls it the second record)',
      ours: `64-bit page_rnd: ${legacy?.counts[2]} of ${legacy?.picks.length} dives took record index 2 (the third, counting from 0), ${legacy?.distinctRecords} distinct record, identical runs: ${legacy?.identicalRuns ? 'yes' : 'no'}`,
      holds: legacy !== undefined && legacy.distinctRecords === 1 && legacy.counts[2] === legacy.picks.length,
    },
    {
      text: 'with a 32-bit word the sequence wraps past 2^32 and turns to 3k+1; with 64 bits it practically never does',
      post: 'on 32-bit machines the generator wrapped around 4 billion and began producing 3k+1; on 64-bit it would take about a thousand years',
      ours: `32-bit: residue first changes at call ${firstChange32} (to ${residue32[firstChange32 - 1]}); 64-bit: first wrap at call ${wrap64.call.toLocaleString('en-US')} (then ${wrap64.residueAfter} mod 3)`,
      holds:
        firstChange32 === Number(wrap32.call) && wrap32.residueAfter === 1n && wrap64.residueAfter === 1n,
    },
    {
      text: 'the replacement generator reaches every record of the root',
      post: 'the fix (Plugin 1.0.4, innodb_use_legacy_cardinality_algorithm=OFF) samples with a better generator',
      ours: `LCG fix: records picked ${fix?.counts.join(' / ')} over ${fix?.picks.length} dives`,
      holds: fix !== undefined && fix.distinctRecords === 3,
    },
  ];

  const tables: Table[] = [
    {
      id: 'dives',
      title: `Which of 3 root records the dives pick (${analyzeRuns} ANALYZE runs × ${divesPerRun} dives, one generator object across runs)`,
      columns: [
        { key: 'generator', label: 'generator' },
        { key: 'first', label: 'first 16 picks' },
        { key: 'r0', label: 'record 0' },
        { key: 'r1', label: 'record 1' },
        { key: 'r2', label: 'record 2' },
        { key: 'distinct', label: 'distinct' },
        { key: 'identical', label: 'identical runs' },
      ],
      rows: dives.map((d) => ({
        generator: d.generator,
        first: d.picks.slice(0, 16).join(' '),
        r0: d.counts[0] ?? 0,
        r1: d.counts[1] ?? 0,
        r2: d.counts[2] ?? 0,
        distinct: d.distinctRecords,
        identical: d.identicalRuns,
      })),
      note: 'Each dive also draws a record on the leaf (nextBelow(248)), so the generator advances as it does in btr_cur_open_at_rnd_pos.',
    },
    {
      id: 'residues',
      title: `Residue classes reached by nextBelow(m), ${residueDraws.toLocaleString('en-US')} draws each (✗: chi-square p < 0.001 or > 0.999)`,
      columns: [
        { key: 'generator', label: 'generator' },
        ...moduli.map((m) => ({ key: `m${m}`, label: `mod ${m}` })),
      ],
      rows: residues.map((r) => {
        const row: Record<string, string> = { generator: r.generator };
        for (const p of r.perModulus)
          row[`m${p.modulus}`] = `${p.classesSeen}/${p.modulus}${p.passed ? '' : ' ✗'}`;
        return row;
      }),
    },
    {
      id: 'wrap',
      title: 'page_rnd = 976722341 + k·87584577: where the word first wraps',
      columns: [
        { key: 'word', label: 'ulint' },
        { key: 'call', label: 'first wrapped call k' },
        { key: 'before', label: 'residue before' },
        { key: 'after', label: 'residue after' },
      ],
      rows: [
        { word: '32-bit', call: Number(wrap32.call), before: 2, after: Number(wrap32.residueAfter) },
        {
          word: '64-bit',
          call: wrap64.call.toLocaleString('en-US'),
          before: 2,
          after: Number(wrap64.residueAfter),
        },
      ],
    },
    {
      id: 'timing',
      title: `nextBelow(3): ns per draw, median of ${timingRounds} interleaved rounds of ${timingDraws.toLocaleString('en-US')} draws`,
      columns: [
        { key: 'generator', label: 'generator' },
        { key: 'nsPerDraw', label: 'ns/draw', digits: 2 },
        { key: 'minNs', label: 'min', digits: 2 },
        { key: 'maxNs', label: 'max', digits: 2 },
        { key: 'spreadPct', label: 'spread %', digits: 1 },
        { key: 'ratioToXoshiro', label: '× xoshiro128**', digits: 2 },
      ],
      rows: timing,
    },
  ];

  const charts: Chart[] = [
    {
      id: 'dive-picks',
      kind: 'bars',
      title: 'Dives per root record (of 80)',
      xLabel: 'generator',
      yLabel: 'dives',
      series: [0, 1, 2].map((k) => ({
        name: `record ${k}`,
        points: dives.map((d) => ({ x: d.generator, y: d.counts[k] ?? 0 })),
      })),
    },
    {
      id: 'wrap-residue',
      kind: 'lines',
      title: 'page_rnd mod 3 per call: 32- vs 64-bit word',
      xLabel: 'call k',
      yLabel: 'residue mod 3',
      series: [
        { name: '32-bit', points: residue32.map((y, i) => ({ x: i + 1, y })) },
        { name: '64-bit', points: residue64.map((y, i) => ({ x: i + 1, y })) },
      ],
    },
    {
      id: 'draw-cost',
      kind: 'bars',
      title: 'ns per nextBelow(3) (median, min–max)',
      xLabel: 'generator',
      yLabel: 'ns',
      series: [
        {
          name: 'ns per draw',
          points: timing.map((t) => ({ x: t.generator, y: t.nsPerDraw, low: t.minNs, high: t.maxNs })),
        },
      ],
    },
  ];

  return {
    config: {
      analyzeRuns,
      divesPerRun,
      rootRecords: 3,
      leafRecords,
      residueDraws,
      moduli,
      timingDraws,
      timingRounds,
      generators: gens,
    },
    claims,
    tables,
    charts,
    data: {
      dives,
      residues,
      residue32,
      residue64,
      wrap32: { call: String(wrap32.call) },
      wrap64: { call: String(wrap64.call) },
      timing,
    },
  };
}

export const prngBias: Experiment = {
  name: 'prng-bias',
  title: 'The case of mistaken identity: which page the legacy generators sample',
  post: {
    title: 'InnoDB\'s "mistaken identity": the random dives always sampled the same page',
    sources: [POSTS.randomSelections],
    claim:
      'InnoDB 5.0/5.1 picked its statistics sample by random dives whose generator only produced numbers with remainder 2 mod 3, so on a root of 3 records every dive took the same child; 32-bit builds escaped once the word wrapped.',
  },
  run,
};
