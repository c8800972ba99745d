import { createGenerator, type RandomGenerator } from '@enginekit/prng';
import { FIL_NULL } from '@enginekit/buffer-pool';
import type { BTree } from '../btree.js';
import { diveToLeaf } from '../internal/dive.js';
import { fieldLayout, matchedRecFields, newRef, refAt, treeShape } from '../internal/fields.js';
import { LATCH_S } from '@enginekit/buffer-pool';
import { accessOf, type TreeAccess } from '../internal/tree-access.js';
import { fieldsBeforeNull } from '../key-codec.js';
import { nextPage, nRecs, pageNo, prevPage } from '../page.js';
import type { Estimate } from './estimate.js';

export interface TransientOptions {
  /**
   * The dive generator, shared by all dives (and, to model the C static, by successive runs).
   * Default: one process-wide `innodb-lcg64` (the fixed generator of 5.1 plugin / 5.5+).
   */
  rng?: RandomGenerator;
  /**
   * `innodb_use_legacy_cardinality_algorithm` (the switch MySQL 5.1 added with the fix for bug
   * #43660): `true` dives with one process-wide `innodb-page-rnd` generator (the C file-static `page_rnd`
   * of bug #43660), `false` with the process-wide `innodb-lcg64` (the fix, and the only
   * generator of 5.5+). Ignored when `rng` is given. Default `false`.
   */
  innodb_use_legacy_cardinality_algorithm?: boolean;
  /** `innodb_stats_transient_sample_pages` (5.1 plugin / 5.5: `innodb_stats_sample_pages`): dives, default 8, ≥ 1. */
  innodb_stats_transient_sample_pages?: number;
  /**
   * `'5.5'` (default): S = min(sample pages, index pages), as the plugin and 5.5+. `'5.1'`: the
   * built-in InnoDB of 5.0/5.1, always BTR_KEY_VAL_ESTIMATE_N_PAGES = 8 dives, even on a 4-page index.
   */
  version?: '5.1' | '5.5';
  /**
   * `innodb_stats_method` (5.5+): `'nulls_equal'` (default: NULLs are one value), `'nulls_unequal'`
   * (every NULL is distinct) or `'nulls_ignored'` (as unequal, and `nNonNull` counts the records
   * whose prefix has no NULL, for `rec_per_key` to leave NULL rows out).
   */
  innodb_stats_method?: 'nulls_equal' | 'nulls_unequal' | 'nulls_ignored';
}

/** The transient estimate; `nNonNull` only with `innodb_stats_method: 'nulls_ignored'`. */
export interface TransientEstimate extends Estimate {
  /** `stat_n_non_null_key_vals` per prefix: non-NULL prefixes, scaled like n_diff but without the add-on. */
  nNonNull?: number[];
}

/**
 * The scaling step of `btr_estimate_number_of_different_key_vals` for one prefix, integer arithmetic:
 * ⌊(nDiff·L + S − 1 + E + notEmpty) / (S + E)⌋ + min(⌊L / (10·(S + E))⌋, S), E = external pages.
 */
export function transientScale(
  nDiff: number,
  leafPages: number,
  samples: number,
  notEmpty: 0 | 1,
  externalPages = 0,
): number {
  const SE = samples + externalPages;
  return (
    Math.floor((nDiff * leafPages + samples - 1 + externalPages + notEmpty) / SE) +
    Math.min(Math.floor(leafPages / (10 * SE)), samples)
  );
}

let sharedLcg: RandomGenerator | null = null;
let sharedPageRnd: RandomGenerator | null = null;

/**
 * InnoDB's transient statistics (`btr_estimate_number_of_different_key_vals`, 5.1–5.5; 5.6 when not
 * persistent). S = min(samplePages, index pages) random dives; on each leaf, for every adjacent pair
 * of records with `m` matched fields, n_diff[j]++ for j = m+1 … n_uniq; plus one for n_diff[n_uniq]
 * when the leaf has a sibling and the index is clustered or non-unique (the first record is assumed
 * to differ from the previous page's last). Then, with L leaf pages and no externally stored pages:
 *
 *   est_j = ⌊(n_diff_j · L + S − 1 + not_empty) / S⌋ + min(⌊L / (10·S)⌋, S)
 *
 * Worked example: L = 1000, S = 8, n_diff = 80 → ⌊(80000 + 7 + 1)/8⌋ + min(12, 8) = 10001 + 8 = 10009.
 *
 * @example
 * ```ts
 * const legacy = createGenerator('innodb-page-rnd'); // keep one object: it is the C static
 * estimateTransient(tree, { rng: legacy, version: '5.1' }).nDiff; // [n_diff of (a), of (a, b)]
 * ```
 */
export function estimateTransient(tree: BTree, options: TransientOptions = {}): TransientEstimate {
  const t = accessOf(tree);
  return t.reading(() => estimateTransientLatched(t, options));
}

function estimateTransientLatched(tree: TreeAccess, options: TransientOptions): TransientEstimate {
  const samplePages = options.innodb_stats_transient_sample_pages ?? 8;
  if (!Number.isInteger(samplePages) || samplePages < 1) {
    throw new RangeError(
      `innodb_stats_transient_sample_pages must be an integer ≥ 1, got ${String(samplePages)}`,
    );
  }
  const legacy = options.innodb_use_legacy_cardinality_algorithm ?? false;
  if (typeof legacy !== 'boolean') {
    throw new TypeError(`innodb_use_legacy_cardinality_algorithm must be a boolean, got ${String(legacy)}`);
  }
  const rng =
    options.rng ??
    (legacy
      ? (sharedPageRnd ??= createGenerator('innodb-page-rnd'))
      : (sharedLcg ??= createGenerator('innodb-lcg64')));
  const shape = treeShape(tree);
  const L = shape.leafPages;
  const version = options.version ?? '5.5';
  if (version !== '5.1' && version !== '5.5')
    throw new RangeError(`version must be '5.1' or '5.5', got ${String(version)}`);
  const S = version === '5.1' ? samplePages : Math.min(samplePages, shape.indexPages);
  const method = options.innodb_stats_method ?? 'nulls_equal';
  if (method !== 'nulls_equal' && method !== 'nulls_unequal' && method !== 'nulls_ignored') {
    throw new RangeError(
      `innodb_stats_method must be nulls_equal, nulls_unequal or nulls_ignored, got ${String(method)}`,
    );
  }
  const nullsEqual = method === 'nulls_equal';
  const layout = fieldLayout(tree);
  const nUniq = layout.nUniq;
  const keyFields = Math.min(layout.keyFields, nUniq);
  // btr0cur.c: the first record of a leaf with a sibling is taken to differ from the previous
  // page's last only when n_uniq = dict_index_get_n_unique_in_tree (clustered, or not UNIQUE).
  const boundaryRule = nUniq === layout.inTree;
  const nDiff = new Array<number>(nUniq).fill(0);
  const nNonNull = method === 'nulls_ignored' ? new Array<number>(nUniq).fill(0) : null;
  const leaves: number[] = [];
  const before = tree.pageFixes;
  const a = newRef();
  const b = newRef();
  let notEmpty: 0 | 1 = 0;
  const bytes = tree.b;
  for (let i = 0; i < S; i++) {
    const frame = diveToLeaf(tree, rng);
    const base = frame * tree.ps;
    leaves.push(pageNo(bytes, base));
    const n = nRecs(bytes, base);
    if (n > 0) notEmpty = 1;
    for (let r = 0; r + 1 < n; r++) {
      refAt(tree, base, r, a);
      refAt(tree, base, r + 1, b);
      const m = matchedRecFields(layout, a, b, nUniq, nullsEqual);
      for (let j = m; j < nUniq; j++) nDiff[j]!++;
    }
    if (nNonNull !== null) {
      // btr_record_not_null_field_in_rec: for each record, prefixes up to its first NULL field
      for (let r = 0; r < n; r++) {
        refAt(tree, base, r, a);
        const upTo = layout.tupleKeys ? fieldsBeforeNull(a.buf, a.k, a.kl) : keyFields;
        const lim = upTo < keyFields ? upTo : nUniq;
        for (let j = 0; j < lim; j++) nNonNull[j]!++;
      }
    }
    if (boundaryRule && (prevPage(bytes, base) !== FIL_NULL || nextPage(bytes, base) !== FIL_NULL))
      nDiff[nUniq - 1]!++;
    tree.unfixPage(frame, LATCH_S);
  }
  return {
    method: 'transient',
    nDiff: nDiff.map((d) => transientScale(d, L, S, notEmpty)),
    ...(nNonNull === null
      ? {}
      : { nNonNull: nNonNull.map((x) => Math.floor((x * L + S - 1 + notEmpty) / S)) }),
    sampleSize: new Array<number>(nUniq).fill(S),
    pagesRead: tree.pageFixes - before,
    dives: S,
    leaves,
    leafPages: L,
  };
}
