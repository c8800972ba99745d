import { BTree, KeyWriter } from '@enginekit/btree-sampler';
import { BufferPool, MemoryDevice } from '@enginekit/buffer-pool';
import {
  type ColumnVector,
  DBT3_KEYS,
  generateTable,
  parseTbl,
  type TblData,
  TPCH_SCHEMA,
  type TpchTable,
} from '@enginekit/tpch';
import type { OwnedTree } from './three-leaf-tree.js';

/** The DBT3 secondary indexes the cardinality experiment samples. */
export const SAMPLED_INDEXES: readonly { table: TpchTable; index: string }[] = [
  { table: 'customer', index: 'i_c_nationkey' },
  { table: 'orders', index: 'i_o_custkey' },
  { table: 'orders', index: 'i_o_orderdate' },
  { table: 'lineitem', index: 'i_l_orderkey' },
  { table: 'lineitem', index: 'i_l_partkey' },
  { table: 'lineitem', index: 'i_l_shipdate' },
];

const PAGE = 16384;

function numbers(col: ColumnVector): ArrayLike<number> {
  if ('values' in col) return col.values;
  throw new TypeError(`column ${col.name} is text; only numeric index columns are supported`);
}

function column(data: TblData, name: string): ColumnVector {
  const c = data.columns.find((x) => x.name === name);
  if (c === undefined) throw new RangeError(`table ${data.table.name} has no column ${name}`);
  return c;
}

function writeField(w: KeyWriter, col: ColumnVector, v: number): void {
  if (col.kind === 'int') w.int32(v);
  else if (col.kind === 'date') w.date(v);
  else if (col.kind === 'bigint') w.int64(v);
  else w.decimal(v);
}

/** Generated tables, parsed once per scale factor. */
export class TpchTables {
  readonly #sf: number;
  readonly #cache = new Map<TpchTable, TblData>();
  constructor(sf: number) {
    this.#sf = sf;
  }
  get(table: TpchTable): TblData {
    let d = this.#cache.get(table);
    if (d === undefined) {
      d = parseTbl(generateTable(table, this.#sf), TPCH_SCHEMA[table], { fileName: `${table}.tbl` });
      this.#cache.set(table, d);
    }
    return d;
  }
}

/**
 * Builds a DBT3 secondary index as InnoDB stores it: entries (index columns, primary key
 * columns), non-unique, sorted and bulk-loaded on 16 KiB pages. Sorting is on the column values
 * (the key format orders exactly like them), so no key is compared as bytes.
 */
export function buildIndex(
  tables: TpchTables,
  table: TpchTable,
  index: string,
): OwnedTree & { rows: number } {
  const def = DBT3_KEYS[table].indexes.find((i) => i.name === index);
  if (def === undefined) throw new RangeError(`${table} has no DBT3 index ${index}`);
  const data = tables.get(table);
  const keyCols = def.columns.map((n) => column(data, n));
  const pkCols = DBT3_KEYS[table].primaryKey.map((n) => column(data, n));
  const all = [...keyCols, ...pkCols];
  const vals = all.map(numbers);
  const order = Uint32Array.from({ length: data.rows }, (_, i) => i);
  order.sort((a, b) => {
    for (const v of vals) {
      const d = (v[a] as number) - (v[b] as number);
      if (d !== 0) return d;
    }
    return 0;
  });
  const bytesPerEntry = 12 * all.length + 8;
  const poolBytes = Math.max(64, Math.ceil((data.rows * bytesPerEntry * 1.3) / PAGE) + 64) * PAGE;
  const pool = new BufferPool({
    innodb_page_size: PAGE,
    innodb_buffer_pool_size: poolBytes,
    device: new MemoryDevice({ pageSize: PAGE }),
  });
  const tree = BTree.create(pool, { unique: false, tupleKeys: true, tupleValues: true });
  const key = new KeyWriter();
  const value = new KeyWriter();
  const loader = tree.bulkLoader();
  for (let k = 0; k < order.length; k++) {
    const r = order[k] as number;
    key.reset();
    for (let i = 0; i < keyCols.length; i++) {
      writeField(key, keyCols[i] as ColumnVector, (vals[i] as ArrayLike<number>)[r] as number);
    }
    value.reset();
    for (let i = 0; i < pkCols.length; i++) {
      writeField(
        value,
        pkCols[i] as ColumnVector,
        (vals[keyCols.length + i] as ArrayLike<number>)[r] as number,
      );
    }
    loader.add(key.copy(), value.copy());
  }
  loader.finish();
  return { tree, pool, rows: data.rows, close: () => pool.close() };
}
