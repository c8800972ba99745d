import type { ExperimentOutput } from '../../experiment.js';
import { round, spreadPercent } from '../../measure.js';
import type { Chart, Claim, Table } from '../../result.js';
import type { PrngBiasMeasurement } from './measure.js';

/** The claims, tables and charts of `prng-bias`, computed from its measurement alone. */
export function present(m: PrngBiasMeasurement): ExperimentOutput {
  const { analyzeRuns, divesPerRun, residueDraws, moduli, timingDraws, timingRounds } = m.settings;
  const gens = m.settings.generators;
  const { dives, residues, residue32, residue64, wrap32, wrap64 } = m;
  const firstChange32 = residue32.findIndex((r) => r !== 2) + 1;

  // ns per draw, and the ratio to xoshiro128** from the same rounds.
  const base = m.times[gens.findIndex((g) => g.name === 'xoshiro128**')]?.median ?? 1;
  const timing = gens.map((g, i) => {
    const t = m.times[i] ?? { median: 0, min: 0, max: 0, runs: 0, samples: [] };
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
      ours: `32-bit: residue first changes at call ${firstChange32} (to ${residue32[firstChange32 - 1]}); 64-bit: first wrap at call ${BigInt(wrap64.call).toLocaleString('en-US')} (then ${wrap64.residueAfter} mod 3)`,
      holds: firstChange32 === Number(wrap32.call) && wrap32.residueAfter === 1 && wrap64.residueAfter === 1,
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
        ...moduli.map((mod) => ({ key: `m${mod}`, label: `mod ${mod}` })),
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
        { word: '32-bit', call: Number(wrap32.call), before: 2, after: wrap32.residueAfter },
        {
          word: '64-bit',
          call: BigInt(wrap64.call).toLocaleString('en-US'),
          before: 2,
          after: wrap64.residueAfter,
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
      leafRecords: m.settings.leafRecords,
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
      wrap32: { call: wrap32.call },
      wrap64: { call: wrap64.call },
      timing,
    },
  };
}
