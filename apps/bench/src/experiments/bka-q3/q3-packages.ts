import type { BTree } from '@enginekit/btree-sampler';
import {
  allocateJoinBuffers,
  arraySource,
  batchedKeyAccessHashJoin,
  batchedKeyAccessJoin,
  indexNestedLoopJoin,
  type JoinStats,
  joinBufferNeeds,
  type Tuple,
  tupleCodec,
} from '@enginekit/join-algos';
import type { BytesRowIdIndexReader, RowFetcher, RowId } from '@enginekit/mrr';
import {
  type Dbt3Trees,
  col,
  epochDay,
  nums,
  type OpenTrees,
  openDbt3,
  readU32be,
  u32be,
} from '../../internal/dbt3-trees.js';

/** Q3 as the join post ran it: segment AUTOMOBILE, 1995-03-09. */
export const Q3_DAY: number = epochDay('1995-03-09');

/** One configuration of the join post, under MariaDB's variable names. */
export interface BkaConfig {
  readonly label: string;
  /** 2: no BKA (nested loops through i_l_orderkey); 6: BKA (incremental); 8: BKAH (hashed). */
  readonly join_cache_level: 2 | 6 | 8;
  readonly join_buffer_size: number;
  readonly mrr_buffer_size: number;
  readonly join_buffer_space_limit: number;
}

/** The driving rows (o_orderkey, o_orderdate, o_shippriority) of AUTOMOBILE customers before the day, in customer order. */
export function q3Driving(trees: Dbt3Trees): Tuple[] {
  const seg = col(trees.customer, 'c_mktsegment') as { bytes: Uint8Array; offsets: Int32Array };
  const ck = nums(trees.customer, 'c_custkey');
  const auto = new Set<number>();
  const want = new TextEncoder().encode('AUTOMOBILE');
  for (let i = 0; i < trees.customer.rows; i++) {
    const o = seg.offsets[i] as number;
    if ((seg.offsets[i + 1] as number) - o === want.length && want.every((b, j) => seg.bytes[o + j] === b))
      auto.add(ck[i] as number);
  }
  const ok = nums(trees.orders, 'o_orderkey');
  const oc = nums(trees.orders, 'o_custkey');
  const od = nums(trees.orders, 'o_orderdate');
  const sp = nums(trees.orders, 'o_shippriority');
  const rows: [number, number, number, number][] = [];
  for (let i = 0; i < trees.orders.rows; i++) {
    if (auto.has(oc[i] as number) && (od[i] as number) < Q3_DAY)
      rows.push([oc[i] as number, ok[i] as number, od[i] as number, sp[i] as number]);
  }
  rows.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return rows.map((r) => [r[1], r[2], r[3]]);
}

/** i_l_orderkey as an MRR IndexReader: equality keys, 8-byte row ids (the lineitem primary key). */
function orderkeyReader(tree: BTree): BytesRowIdIndexReader<number> {
  const c = tree.cursor();
  const want = new Uint8Array(4);
  let wanted = 0;
  return {
    rowIdKind: 'bytes',
    rowIdLength: 8,
    recordsPerKey: 4,
    compareKeys: (a: number, b: number) => a - b,
    seek(range) {
      if (!('key' in range)) throw new TypeError('i_l_orderkey is read by keys only');
      wanted = range.key;
      return c.seek(u32be(wanted, want), 'eq');
    },
    next: () => c.next() && readU32be(c.key()) === wanted,
    copyRowId(target: Uint8Array, offset: number) {
      target.set(c.value(), offset);
    },
  };
}

function lineFetcher(tree: BTree): RowFetcher<Uint8Array> {
  return { rndPos: (pk: RowId) => tree.get(pk as Uint8Array) as Uint8Array };
}

/** Nested loops through the secondary index: each entry's row fetched at once. */
function indexAccess(db: OpenTrees) {
  const reader = orderkeyReader(db.i_l_orderkey);
  const fetch = lineFetcher(db.lineitem);
  const pk = new Uint8Array(8);
  const row = (): Uint8Array => {
    reader.copyRowId(pk, 0);
    return fetch.rndPos(pk);
  };
  return {
    readKey: (k: number | string | bigint) => (reader.seek({ key: k as number }) ? row() : undefined),
    nextSame: () => (reader.next() ? row() : undefined),
  };
}

export interface Q3Run {
  readonly config: string;
  /** What ran: BKA/BKAH, or NLJ (level 2, or no join buffer granted under the space limit). */
  readonly algorithm: string;
  readonly grantedBytes: number;
  readonly counters: Readonly<Record<string, number>>;
  readonly top: readonly (readonly string[])[];
  readonly cpuMs: number;
  readonly modeledMs: number;
}

const codec = tupleCodec(['int32', 'int32', 'int32']);
const day = (d: number): string => new Date(d * 86_400_000).toISOString().slice(0, 10);

/** One run of Q3's join on a fresh pool of `poolPages` (cold over the hdd model when `hdd`). */
export function runQ3(
  trees: Dbt3Trees,
  driving: readonly Tuple[],
  config: BkaConfig,
  poolPages: number,
  hdd: boolean,
): Q3Run {
  const db = openDbt3(trees, poolPages, hdd);
  const sums = new Map<number, [number, Tuple]>();
  const emit = (o: Tuple, l: Uint8Array | null): void => {
    if (l === null) return;
    const k = o[0] as number;
    const e = sums.get(k);
    const v = readU32be(l, 0) * (100 - (l[4] as number));
    if (e === undefined) sums.set(k, [v, o]);
    else e[0] += v;
  };
  const base = {
    type: 'inner' as const,
    outer: arraySource(driving as Tuple[]),
    outerKey: (o: Tuple) => o[0] as number,
    innerKey: (l: Uint8Array) => readU32be(l, 10),
    condition: (_o: Tuple, l: Uint8Array) => readU32be(l, 6) > Q3_DAY,
  };
  const hashed = config.join_cache_level === 8;
  const granted =
    config.join_cache_level === 2
      ? 0
      : (allocateJoinBuffers(
          [
            joinBufferNeeds({
              outerCodec: codec,
              type: 'inner',
              algorithm: hashed ? 'BKAH' : 'BKA',
              reader: orderkeyReader(db.i_l_orderkey),
            }),
          ],
          {
            join_buffer_size: config.join_buffer_size,
            join_buffer_space_limit: config.join_buffer_space_limit,
            optimize_join_buffer_size: true,
          },
        )[0] ?? 0);
  const c0 = process.cpuUsage();
  let stats: JoinStats;
  let algorithm: string;
  if (granted === 0) {
    algorithm = 'NLJ';
    stats = indexNestedLoopJoin({ ...base, inner: indexAccess(db) }, emit);
  } else {
    algorithm = hashed ? 'BKAH' : 'BKA';
    const spec = {
      ...base,
      outerCodec: codec,
      join_buffer_size: granted,
      reader: orderkeyReader(db.i_l_orderkey),
      fetcher: lineFetcher(db.lineitem),
      mrr_sort_keys: true,
    };
    stats = hashed ? batchedKeyAccessHashJoin(spec, emit) : batchedKeyAccessJoin(spec, emit);
  }
  const c = process.cpuUsage(c0);
  const s = db.pool.stats();
  const top = [...sums]
    .sort((a, b) => b[1][0] - a[1][0] || (a[1][1][1] as number) - (b[1][1][1] as number))
    .slice(0, 10)
    .map(([k, [v, o]]) => [String(k), (v / 10000).toFixed(4), day(o[1] as number), String(o[2])]);
  return {
    config: config.label,
    algorithm,
    grantedBytes: granted,
    counters: {
      joinBufferFills: stats.joinBufferFills,
      Handler_mrr_init: stats.Handler_mrr_init,
      Handler_mrr_key_refills: stats.Handler_mrr_key_refills,
      Handler_mrr_rowid_refills: stats.Handler_mrr_rowid_refills,
      Handler_read_key: stats.Handler_read_key,
      Handler_read_next: stats.Handler_read_next,
      Handler_read_rnd: stats.Handler_read_rnd,
      Handler_read_rnd_next: stats.Handler_read_rnd_next,
      Innodb_buffer_pool_read_ahead: s.Innodb_buffer_pool_read_ahead,
      Innodb_buffer_pool_read_requests: s.Innodb_buffer_pool_read_requests,
      Innodb_buffer_pool_reads: s.Innodb_buffer_pool_reads,
      Innodb_data_read: s.Innodb_data_read,
      Innodb_data_reads: s.Innodb_data_reads,
      Innodb_pages_read: s.Innodb_pages_read,
      rowsOut: stats.rowsOut,
    },
    top,
    cpuMs: (c.user + c.system) / 1000,
    modeledMs: db.disk?.stats().modeledMs ?? 0,
  };
}
