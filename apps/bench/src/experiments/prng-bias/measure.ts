import {
  createGenerator,
  type GeneratorName,
  type GeneratorOptions,
  PAGE_RND_START,
  PAGE_RND_STEP,
} from '@enginekit/prng';
import { residueTest } from '@enginekit/prng/quality';
import type { ExperimentContext } from '../../experiment.js';
import { deriveSeed } from '../../internal/seeds.js';
import { type Spread, timeInterleaved } from '../../measure.js';

export interface GeneratorCase {
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

/** One generator's dives into the 3-record root, over every ANALYZE run. */
export interface GeneratorDives {
  readonly generator: string;
  /** The root record of every dive, in order. */
  readonly picks: readonly number[];
  /** How many dives took record 0, 1 and 2. */
  readonly counts: readonly number[];
  readonly distinctRecords: number;
  /** Whether every ANALYZE run picked the same sequence of records. */
  readonly identicalRuns: boolean;
}

/** The residue-class test of `nextBelow(m)` for one generator and one modulus. */
export interface ModulusResidues {
  readonly modulus: number;
  readonly classesSeen: number;
  readonly pValue: number;
  readonly passed: boolean;
}

export interface GeneratorResidues {
  readonly generator: string;
  readonly perModulus: readonly ModulusResidues[];
}

/** Where `page_rnd`'s word first wraps: the 1-based call (a decimal string: it may pass 2^53) and its residue mod 3 then. */
export interface WordWrap {
  readonly call: string;
  readonly residueAfter: number;
}

/** What `prng-bias` measures; every field survives JSON. */
export interface PrngBiasMeasurement {
  readonly settings: {
    readonly analyzeRuns: number;
    readonly divesPerRun: number;
    readonly leafRecords: number;
    readonly residueDraws: number;
    readonly moduli: readonly number[];
    readonly timingDraws: number;
    readonly timingRounds: number;
    readonly generators: readonly GeneratorCase[];
  };
  /** Per generator, in the order of `settings.generators`. */
  readonly dives: readonly GeneratorDives[];
  readonly residues: readonly GeneratorResidues[];
  /** `page_rnd` mod 3 for calls 1, 2, … with a 32-bit and a 64-bit word. */
  readonly residue32: readonly number[];
  readonly residue64: readonly number[];
  readonly wrap32: WordWrap;
  readonly wrap64: WordWrap;
  /** Milliseconds of `timingDraws` draws of `nextBelow(3)`, per generator, from interleaved rounds. */
  readonly times: readonly Spread[];
}

/** First call k (1-based) at which `start + k·step` has wrapped the word, and its residue mod 3. */
function firstWrap(bits: 32 | 64): WordWrap {
  const word = 1n << BigInt(bits);
  const start = BigInt(PAGE_RND_START);
  const step = BigInt(PAGE_RND_STEP);
  const call = (word - start + step - 1n) / step;
  return { call: String(call), residueAfter: Number((start + call * step - word) % 3n) };
}

export async function measure(ctx: ExperimentContext): Promise<PrngBiasMeasurement> {
  const analyzeRuns = 10;
  const divesPerRun = 8;
  const leafRecords = 248;
  const residueDraws = ctx.quick ? 6_000 : 300_000;
  const timingDraws = ctx.quick ? 20_000 : 1_000_000;
  const timingRounds = ctx.quick ? 3 : 7;
  const gens = cases(ctx.seed);

  // 1. Dives: one generator object per case across all runs (the C static), each dive drawing the
  // root record among 3 and then a record of the leaf, as btr_cur_open_at_rnd_pos does.
  const dives = gens.map((g): GeneratorDives => {
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
  const residues = gens.map((g): GeneratorResidues => {
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

  // 4. Cost of one draw, nextBelow(3), in interleaved rounds.
  let sink = 0;
  const timers = gens.map((g) => {
    const gen = createGenerator(g.name, g.options);
    return () => {
      for (let i = 0; i < timingDraws; i++) sink += gen.nextBelow(3);
    };
  });
  const times = timeInterleaved(timers, timingRounds);
  if (sink < 0) throw new Error('unreachable');

  return {
    settings: {
      analyzeRuns,
      divesPerRun,
      leafRecords,
      residueDraws,
      moduli,
      timingDraws,
      timingRounds,
      generators: gens,
    },
    dives,
    residues,
    residue32,
    residue64,
    wrap32: firstWrap(32),
    wrap64: firstWrap(64),
    times,
  };
}
