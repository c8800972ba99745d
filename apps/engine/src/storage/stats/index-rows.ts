import { cardinality, type TableStatistics } from '../statistics.js';
import type { Table, TableIndex } from '../table.js';
import { tableOf } from '../schema-name.js';

/** One row of SHOW INDEX / information_schema.STATISTICS: one key part of one index. */
export interface KeyPartRow {
  readonly table: string;
  readonly nonUnique: 0 | 1;
  readonly keyName: string;
  readonly seqInIndex: number;
  readonly columnName: string;
  /** ⌊rows / rec_per_key⌋ of the prefix ending at this part (null when the index has no such n_diff). */
  readonly cardinality: number | null;
  /** 'YES' or ''. */
  readonly nullable: string;
}

/**
 * MySQL's key order (sql_table.cc, `sort_keys`): the primary key, then UNIQUE keys whose columns
 * are all NOT NULL, then the other UNIQUE keys, then the rest; creation order within each.
 */
export function mysqlKeyOrder(table: Table): TableIndex[] {
  const rank = (ix: TableIndex): number => {
    if (ix.primary) return 0;
    if (!ix.unique) return 3;
    return ix.columns.every((c) => table.columns[c]!.nullable !== true) ? 1 : 2;
  };
  return [table.primary, ...table.secondary]
    .map((ix, i) => ({ ix, i }))
    .sort((a, b) => rank(a.ix) - rank(b.ix) || a.i - b.i)
    .map((x) => x.ix);
}

/**
 * The key parts SHOW INDEX lists (`get_schema_stat_record`, sql_show.cc): per index its own
 * columns only — a secondary index's primary-key columns are part of its InnoDB record and of its
 * n_uniq, but not of the user's key; Cardinality of part j is ⌊stat_n_rows / rec_per_key[j]⌋ with
 * `ha_innobase::info`'s halved rec_per_key. `hiddenPrimary`: the table's primary key is the
 * generated row id (InnoDB's GEN_CLUST_INDEX, which MySQL does not show).
 */
export function keyPartRows(table: Table, stats: TableStatistics, hiddenPrimary: boolean): KeyPartRow[] {
  const out: KeyPartRow[] = [];
  for (const ix of mysqlKeyOrder(table)) {
    if (ix.primary && hiddenPrimary) continue;
    const st = stats.indexes.get(ix.name);
    ix.columns.forEach((c, j) => {
      const col = table.columns[c]!;
      out.push({
        table: tableOf(table.name),
        nonUnique: ix.unique ? 0 : 1,
        keyName: ix.name,
        seqInIndex: j + 1,
        columnName: col.name,
        cardinality: st !== undefined && j < st.nDiff.length ? cardinality(stats, st, j + 1) : null,
        nullable: col.nullable === true ? 'YES' : '',
      });
    });
  }
  return out;
}
