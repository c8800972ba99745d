import type { BTree } from '@enginekit/btree-sampler';
import {
  createMrrCounters,
  createMultiRangeRead,
  type MrrCounters,
  type MrrRange,
  type NumberRowIdIndexReader,
  type RowFetcher,
  type RowId,
} from '@enginekit/mrr';
import { Q10_COUNTERS } from '../../internal/sql-configs.js';
import {
  type Dbt3Trees,
  epochDay,
  type OpenTrees,
  openDbt3,
  readU32be,
  u32be,
} from '../../internal/dbt3-trees.js';

/** Q10's date range as the MRR post ran it: [1993-08-01, 1993-11-01). */
export const Q10_FROM: number = epochDay('1993-08-01');
export const Q10_TO: number = epochDay('1993-11-01');
const R = 'R'.charCodeAt(0);

export interface Q10Config {
  readonly label: string;
  /** undefined: no MRR (each index entry's row fetched at once). */
  readonly mrr_buffer_size?: number;
}

/** One run of Q10's plan, with its counters. */
export interface Q10Run {
  readonly counters: Readonly<Record<string, number>>;
  /** The top 20 (c_custkey, revenue as text with 4 decimals), the query's answer. */
  readonly top: readonly (readonly [number, string])[];
  readonly cpuMs: number;
  readonly modeledMs: number;
  /** Row ids the DS-MRR buffer holds at once (0 without MRR). */
  readonly rowIdCapacity: number;
}

/** i_o_orderdate as an MRR IndexReader: a date interval, numeric row ids (o_orderkey). */
function dateReader(tree: BTree): NumberRowIdIndexReader<number> {
  const cursor = tree.cursor();
  const from = new Uint8Array(4);
  let high = 0;
  let rowId = 0;
  const load = (): boolean => {
    if (readU32be(cursor.key()) > high) return false;
    rowId = readU32be(cursor.value());
    return true;
  };
  return {
    rowIdKind: 'number',
    recordsPerKey: 1,
    seek(range: MrrRange<number>) {
      if ('key' in range) throw new TypeError('i_o_orderdate is read by intervals only');
      const low = (range.low as number) + (range.lowInclusive === false ? 1 : 0);
      high = (range.high as number) - (range.highInclusive === false ? 1 : 0);
      if (low > high || !cursor.seek(u32be(low, from), 'ge')) return false;
      return load();
    },
    next: () => cursor.next() && load(),
    rowId: () => rowId,
    compareKeys: (a: number, b: number) => a - b,
  };
}

function pkFetcher(tree: BTree): RowFetcher<Uint8Array> {
  const key = new Uint8Array(4);
  return { rndPos: (pk: RowId) => tree.get(u32be(pk as number, key)) as Uint8Array };
}

/**
 * Q10's good plan over the packages: a range scan of i_o_orderdate for the quarter, each orders
 * row fetched by its primary key (directly, or through DS-MRR sorted by row id within
 * `mrr_buffer_size`); then lineitem by the clustered key's prefix l_orderkey (l_returnflag = 'R'
 * checked on the row), customer and nation by primary key; revenue summed per customer, the top
 * 20. Counters use MariaDB's rules: one Handler_read_key per index lookup, one Handler_read_next
 * per further entry, Innodb_rows_read per row handed up.
 */
export function runQ10(
  db: OpenTrees,
  config: Q10Config,
): { counters: MrrCounters & { Innodb_rows_read: number }; top: [number, string][]; rowIdCapacity: number } {
  const counters = Object.assign(createMrrCounters(), { Innodb_rows_read: 0 });
  const scan = createMultiRangeRead(
    dateReader(db.i_o_orderdate),
    pkFetcher(db.orders),
    [{ low: Q10_FROM, high: Q10_TO, highInclusive: false, association: 0 }],
    config.mrr_buffer_size === undefined
      ? { mrr: false, associations: false, counters }
      : { mrr_buffer_size: config.mrr_buffer_size, mrr_sort_keys: true, associations: false, counters },
  );
  const li = db.lineitem.cursor();
  const k4 = new Uint8Array(4);
  const revenue = new Map<number, number>();
  while (scan.next()) {
    counters.Innodb_rows_read++;
    const orderRow = scan.row as Uint8Array;
    const orderkey = readU32be(orderRow, 12);
    const custkey = readU32be(orderRow, 0);
    // lineitem: ref on the clustered key's first field.
    counters.Handler_read_key++;
    let sum = 0;
    let any = false;
    for (let ok = li.seek(u32be(orderkey, k4), 'ge'); ok; ok = li.next()) {
      if (readU32be(li.key(), 0) !== orderkey) break;
      counters.Innodb_rows_read++;
      const v = li.value();
      if (v[5] === R) {
        sum += readU32be(v, 0) * (100 - (v[4] as number));
        any = true;
      }
      counters.Handler_read_next++;
    }
    if (!any) continue;
    // customer and nation: eq_ref by primary key.
    counters.Handler_read_key += 2;
    counters.Innodb_rows_read += 2;
    const c = db.customer.get(u32be(custkey, k4)) as Uint8Array;
    db.nation.get(u32be(readU32be(c, 0), k4));
    revenue.set(custkey, (revenue.get(custkey) ?? 0) + sum);
  }
  const top = [...revenue]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, 20)
    .map(([k, v]): [number, string] => [k, (v / 10000).toFixed(4)]);
  return { counters, top, rowIdCapacity: scan.rowIdCapacity };
}

/** The pool's counters of the posts' table (the rest of Q10_COUNTERS is the handler's). */
const POOL_COUNTERS = Q10_COUNTERS.filter(
  (n) => n.startsWith('Innodb_') && n !== 'Innodb_rows_read',
) as readonly (
  | 'Innodb_buffer_pool_read_ahead'
  | 'Innodb_buffer_pool_read_requests'
  | 'Innodb_buffer_pool_reads'
  | 'Innodb_data_read'
  | 'Innodb_data_reads'
  | 'Innodb_pages_read'
)[];

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** One measured run on an open pool: Q10's counters with the pool's, and the CPU it took. */
function measured(db: OpenTrees, config: Q10Config): Q10Run {
  const c0 = cpuMs();
  const { counters, top, rowIdCapacity } = runQ10(db, config);
  const cpu = cpuMs() - c0;
  const s = db.pool.stats();
  const out: Record<string, number> = { ...counters };
  for (const k of POOL_COUNTERS) out[k] = s[k];
  return { counters: out, top, cpuMs: cpu, modeledMs: db.disk?.stats().modeledMs ?? 0, rowIdCapacity };
}

/** IO-bound: a cold pool of `poolPages` over the hdd model, one run. */
export function q10Cold(trees: Dbt3Trees, poolPages: number, config: Q10Config): Q10Run {
  return measured(openDbt3(trees, poolPages, true), config);
}

/** In memory: one warm pool holding every page; counters of one run after the warm-up. */
export function q10Warm(trees: Dbt3Trees): { db: OpenTrees; run: (config: Q10Config) => Q10Run } {
  const db = openDbt3(trees, trees.pages + 64, false);
  runQ10(db, { label: 'warm-up' });
  return {
    db,
    run(config) {
      db.pool.resetStats();
      return measured(db, config);
    },
  };
}
