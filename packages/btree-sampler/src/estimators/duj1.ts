import { compareBytes } from '@enginekit/common';
import { createGenerator, nextFloat53, type RandomGenerator } from '@enginekit/prng';
import type { BTree } from '../btree.js';
import {
  fieldLayout,
  leafPageNumbers,
  matchedRecFields,
  type RecRef,
  refAt,
  treeShape,
} from '../internal/fields.js';
import { LATCH_S } from '@enginekit/buffer-pool';
import { accessOf, type TreeAccess } from '../internal/tree-access.js';
import { nRecs } from '../page.js';
import type { Estimate } from './estimate.js';

export interface Duj1Options {
  /** Generator for the block and row samples. Default: xoshiro128** seeded from the clock. */
  rng?: RandomGenerator;
  /** Rows to sample (`targrows`): 300 · default_statistics_target (100) = 30000. */
  targetRows?: number;
  /** Blocks (leaf pages) to sample; PostgreSQL uses targrows. Default `targetRows`. */
  targetBlocks?: number;
}

/** Haas–Stokes Duj1 as PostgreSQL applies it, for one column (here: one key prefix). */
export interface Duj1Inputs {
  /** Sampled rows. */
  n: number;
  /** Estimated total rows. */
  N: number;
  /** Distinct values in the sample. */
  d: number;
  /** Values seen exactly once. */
  f1: number;
}

/**
 * `compute_scalar_stats` / `compute_distinct_stats` without NULLs: every value repeated → d; none
 * repeated → all rows distinct (−1 · rows); else D = n·d / (n − f1 + f1·n/N) clamped to [d, N] and
 * rounded. Returns the count (PostgreSQL would store values above 10 % of the rows as a negative
 * fraction; the fraction times N is returned here).
 */
export function duj1({ n, N, d, f1 }: Duj1Inputs): number {
  const nMultiple = d - f1;
  if (nMultiple === 0) return N;
  if (f1 === 0) return d;
  let D = (n * d) / (n - f1 + (f1 * n) / N);
  if (D < d) D = d;
  if (D > N) D = N;
  const stadistinct = Math.floor(D + 0.5);
  if (stadistinct > 0.1 * N) return Math.round((stadistinct / N) * N);
  return stadistinct;
}

/** `sampler_random_fract`: uniform in (0, 1), never 0. */
function fract(rng: RandomGenerator): number {
  for (;;) {
    const u = nextFloat53(rng);
    if (u > 0) return u;
  }
}

/** Knuth's Algorithm S (`BlockSampler_Next`): n of N block numbers, ascending. */
export function sampleBlocks(N: number, n: number, rng: RandomGenerator): number[] {
  const out: number[] = [];
  let t = 0;
  let m = 0;
  while (t < N && m < n) {
    const K = N - t;
    const k = n - m;
    if (k >= K) {
      m++;
      out.push(t++);
      continue;
    }
    const V = fract(rng);
    let p = 1 - k / K;
    let KK = K;
    while (V < p) {
      t++;
      KK--;
      p *= 1 - k / KK;
    }
    m++;
    out.push(t++);
  }
  return out;
}

/** Vitter's reservoir skip (`reservoir_get_next_S`): rows to skip after t seen, reservoir n. */
class Reservoir {
  W: number;
  readonly #rng: RandomGenerator;
  constructor(n: number, rng: RandomGenerator) {
    this.#rng = rng;
    this.W = Math.exp(-Math.log(fract(rng)) / n);
  }
  nextS(t: number, n: number): number {
    const rng = this.#rng;
    let S = 0;
    if (t <= 22 * n) {
      // Algorithm X
      const V = fract(rng);
      t += 1;
      let quot = (t - n) / t;
      while (quot > V) {
        S += 1;
        t += 1;
        quot *= (t - n) / t;
      }
      return S;
    }
    // Algorithm Z
    let W = this.W;
    const term = t - n + 1;
    for (;;) {
      const U = fract(rng);
      const X = t * (W - 1);
      S = Math.floor(X);
      const tmp = (t + 1) / term;
      const lhs = Math.exp(Math.log((U * tmp * tmp * (term + S)) / (t + X)) / n);
      const rhs = (((t + X) / (term + S)) * term) / t;
      if (lhs <= rhs) {
        W = rhs / lhs;
        break;
      }
      let y = (((U * (t + 1)) / term) * (t + S + 1)) / (t + X);
      let denom: number;
      let numerLim: number;
      if (n < S) {
        denom = t;
        numerLim = term + S;
      } else {
        denom = t - n + S;
        numerLim = t + 1;
      }
      for (let numer = t + S; numer >= numerLim; numer--) {
        y *= numer / denom;
        denom--;
      }
      W = Math.exp(-Math.log(fract(rng)) / n);
      if (Math.exp(Math.log(y) / n) <= (t + X) / t) break;
    }
    this.W = W;
    return S;
  }
}

/**
 * PostgreSQL's ANALYZE on the leaf level (`acquire_sample_rows` + Duj1): Algorithm S picks up to
 * `targetBlocks` leaf pages, a reservoir keeps `targetRows` of their entries (Algorithm X, then Z
 * beyond 22·n rows seen), total rows = ⌊rows seen / blocks read · leaf pages + 0.5⌋, and each key
 * prefix gets Duj1 on the sorted sample. NULLs are ordinary values here (PostgreSQL drops them
 * from the column's sample).
 *
 * @example
 * ```ts
 * estimateDuj1(tree, { rng: createGenerator('pcg32', { seed: 1 }) }).nDiff;
 * ```
 */
export function estimateDuj1(
  tree: BTree,
  options: Duj1Options = {},
): Estimate & { rows: number; sampledRows: number } {
  const t = accessOf(tree);
  return t.reading(() => duj1Latched(t, options));
}

function duj1Latched(
  tree: TreeAccess,
  options: Duj1Options,
): Estimate & { rows: number; sampledRows: number } {
  const targetRows = options.targetRows ?? 30000;
  if (!Number.isInteger(targetRows) || targetRows < 1)
    throw new RangeError(`targetRows must be an integer ≥ 1, got ${String(targetRows)}`);
  const targetBlocks = options.targetBlocks ?? targetRows;
  if (!Number.isInteger(targetBlocks) || targetBlocks < 1) {
    throw new RangeError(`targetBlocks must be an integer ≥ 1, got ${String(targetBlocks)}`);
  }
  const rng = options.rng ?? createGenerator('xoshiro128**');
  const L = treeShape(tree).leafPages;
  const layout = fieldLayout(tree);
  const nUniq = layout.nUniq;
  const before = tree.pageFixes;
  const pages = leafPageNumbers(tree);
  const chosen = sampleBlocks(pages.length, Math.min(targetBlocks, pages.length), rng);
  const rows: Uint8Array[] = [];
  const keyLens: number[] = [];
  let seen = 0;
  let rowsToSkip = -1;
  const reservoir = new Reservoir(targetRows, rng);
  const b = tree.b;
  const ps = tree.ps;
  const leaves: number[] = [];
  const r: RecRef = { buf: b, k: 0, kl: 0, vl: 0 };
  for (const blk of chosen) {
    const page = pages[blk]!;
    leaves.push(page);
    const frame = tree.fixPage(page, LATCH_S);
    const base = frame * ps;
    const n = nRecs(b, base);
    for (let i = 0; i < n; i++) {
      if (rows.length < targetRows) {
        refAt(tree, base, i, r);
        rows.push(b.slice(r.k, r.k + r.kl + r.vl));
        keyLens.push(r.kl);
      } else {
        if (rowsToSkip < 0) rowsToSkip = reservoir.nextS(seen, targetRows);
        if (rowsToSkip <= 0) {
          const k = Math.floor(targetRows * fract(rng));
          refAt(tree, base, i, r);
          rows[k] = b.slice(r.k, r.k + r.kl + r.vl);
          keyLens[k] = r.kl;
        }
        rowsToSkip -= 1;
      }
      seen++;
    }
    tree.unfixPage(frame, LATCH_S);
  }
  const totalRows = chosen.length > 0 ? Math.floor((seen / chosen.length) * pages.length + 0.5) : 0;
  // Sort the sample in index order; every prefix is then grouped.
  const order = rows.map((_, i) => i);
  order.sort((x, y) => {
    const a = rows[x]!;
    const c = rows[y]!;
    const ka = keyLens[x]!;
    const kc = keyLens[y]!;
    const k = compareBytes(a, 0, ka, c, 0, kc);
    return k !== 0 ? k : compareBytes(a, ka, a.length, c, kc, c.length);
  });
  const nDiff = new Array<number>(nUniq).fill(0);
  const d = new Array<number>(nUniq).fill(0);
  const f1 = new Array<number>(nUniq).fill(0);
  const run = new Array<number>(nUniq).fill(0);
  const pa: RecRef = { buf: b, k: 0, kl: 0, vl: 0 };
  const pb: RecRef = { buf: b, k: 0, kl: 0, vl: 0 };
  for (let i = 0; i < order.length; i++) {
    let m = 0;
    if (i > 0) {
      const x = order[i - 1]!;
      const y = order[i]!;
      pa.buf = rows[x]!;
      pa.kl = keyLens[x]!;
      pa.vl = pa.buf.length - pa.kl;
      pb.buf = rows[y]!;
      pb.kl = keyLens[y]!;
      pb.vl = pb.buf.length - pb.kl;
      m = matchedRecFields(layout, pa, pb, nUniq);
    }
    for (let j = 0; j < nUniq; j++) {
      if (i > 0 && j < m) {
        run[j]!++;
        continue;
      }
      if (i > 0 && run[j] === 1) f1[j]!++;
      d[j]!++;
      run[j] = 1;
    }
  }
  for (let j = 0; j < nUniq; j++) {
    if (order.length > 0 && run[j] === 1) f1[j]!++;
    nDiff[j] = order.length === 0 ? 0 : duj1({ n: order.length, N: totalRows, d: d[j]!, f1: f1[j]! });
  }
  return {
    method: 'duj1',
    nDiff,
    sampleSize: new Array<number>(nUniq).fill(order.length),
    pagesRead: tree.pageFixes - before,
    dives: 0,
    leaves,
    leafPages: L,
    rows: totalRows,
    sampledRows: order.length,
  };
}
