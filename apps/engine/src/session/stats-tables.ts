import { T_INT, T_STR, type SqlType } from '../exec/types.js';
import { registerSystemTable } from '../plan/system-tables.js';
import { SqlDictionary } from './dictionary.js';
import type { Database } from '../storage/database.js';
import type { Table } from '../storage/table.js';
import { keyPartRows } from '../storage/stats/index-rows.js';
import { nDiffName } from '../storage/stats/store.js';
import { schemaOf, splitName, tableOf } from '../storage/schema-name.js';
import { peekNextValue } from './dml-insert.js';

/**
 * The statistics as MySQL 5.6 shows them in tables: information_schema.STATISTICS and TABLES
 * (what SHOW INDEX and SHOW TABLE STATUS print, from the statistics in the dictionary) and the
 * persistent statistics' own tables mysql.innodb_table_stats and mysql.innodb_index_stats (the
 * rows saved in SYS_STATS). Importing this module registers them.
 */

function userTables(db: Database): Table[] {
  return db.tables().filter((t) => !t.name.startsWith('#'));
}

function hiddenPrimary(db: Database, t: Table): boolean {
  return SqlDictionary.of(db).tables.get(t.name)?.hiddenPk === true;
}

/** A TIMESTAMP as MySQL prints it ('YYYY-MM-DD HH:MM:SS', UTC here). */
function timestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** Column names and types ('s' string, 'i' integer, one letter per column). */
function col(names: string, types: string): { columns: string[]; types: SqlType[] } {
  const columns = names.split(' ');
  if (columns.length !== types.length) throw new RangeError(`${names}: ${types.length} types`);
  return { columns, types: [...types].map((c) => (c === 'i' ? T_INT : T_STR)) };
}

const STATISTICS = col(
  'TABLE_CATALOG TABLE_SCHEMA TABLE_NAME NON_UNIQUE INDEX_SCHEMA INDEX_NAME SEQ_IN_INDEX COLUMN_NAME COLLATION CARDINALITY SUB_PART PACKED NULLABLE INDEX_TYPE COMMENT INDEX_COMMENT',
  'sssississiisssss',
);

registerSystemTable('information_schema', 'STATISTICS', {
  ...STATISTICS,
  *rows(env) {
    const db = env.db;
    for (const t of userTables(db)) {
      for (const p of keyPartRows(t, db.statistics(t), hiddenPrimary(db, t)))
        yield [
          'def',
          schemaOf(t.name),
          p.table,
          p.nonUnique,
          schemaOf(t.name),
          p.keyName,
          p.seqInIndex,
          p.columnName,
          'A',
          p.cardinality,
          null,
          null,
          p.nullable,
          'BTREE',
          '',
          '',
        ];
    }
  },
});

const TABLES = col(
  'TABLE_CATALOG TABLE_SCHEMA TABLE_NAME TABLE_TYPE ENGINE VERSION ROW_FORMAT TABLE_ROWS AVG_ROW_LENGTH DATA_LENGTH MAX_DATA_LENGTH INDEX_LENGTH DATA_FREE AUTO_INCREMENT CREATE_TIME UPDATE_TIME CHECK_TIME TABLE_COLLATION CHECKSUM CREATE_OPTIONS TABLE_COMMENT MAX_INDEX_LENGTH TEMPORARY',
  'sssssisiiiiiiissssissis',
);

/**
 * A table's status from ENGINE on, as information_schema.TABLES and SHOW TABLE STATUS both show it
 * (MariaDB builds the second from the first): InnoDB's Dynamic rows, the statistics' row count,
 * data and index lengths from the pages (ha_innobase::info: the mean row is the
 * clustered pages' bytes over the rows), the next AUTO_INCREMENT value, the table's collation, its
 * STATS_* options and its comment.
 */
export function tableStatusRow(db: Database, t: Table): unknown[] {
  const ps = db.pool.pageSize;
  const s = db.statistics(t);
  const meta = SqlDictionary.of(db).tables.get(t.name);
  const data = s.clusteredPages * ps;
  const rows = s.rows;
  return [
    'InnoDB',
    10,
    meta?.rowFormat === undefined ? 'Dynamic' : meta.rowFormat[0] + meta.rowFormat.slice(1).toLowerCase(),
    rows,
    rows > 0 ? Math.floor(data / rows) : 0,
    data,
    0,
    s.otherPages * ps,
    0,
    meta !== undefined && meta.autoIncrement >= 0 ? peekNextValue(db, t, meta.autoIncrement) : null,
    null,
    null,
    null,
    meta?.collation ?? 'utf8mb4_general_ci',
    null,
    createOptions(db, t),
    meta?.comment ?? '',
    0,
    'N',
  ];
}

/** CREATE_OPTIONS as sql_show.cc writes the table's STATS_* options and its ROW_FORMAT. */
function createOptions(db: Database, t: Table): string {
  const o = db.statisticsDictionary.options(t.id);
  const parts: string[] = [];
  const format = SqlDictionary.of(db).tables.get(t.name)?.rowFormat;
  if (o.statsPersistent !== undefined) parts.push(`stats_persistent=${o.statsPersistent ? 1 : 0}`);
  if (o.statsAutoRecalc !== undefined) parts.push(`stats_auto_recalc=${o.statsAutoRecalc ? 1 : 0}`);
  if (o.statsSamplePages !== undefined) parts.push(`stats_sample_pages=${o.statsSamplePages}`);
  if (format !== undefined) parts.push(`row_format=${format}`);
  return parts.join(' ');
}

registerSystemTable('information_schema', 'TABLES', {
  ...TABLES,
  *rows(env) {
    const db = env.db;
    for (const t of userTables(db))
      yield ['def', schemaOf(t.name), tableOf(t.name), 'BASE TABLE', ...tableStatusRow(db, t)];
    for (const v of SqlDictionary.of(db).views.keys())
      yield [
        'def',
        schemaOf(v),
        tableOf(v),
        'VIEW',
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        'VIEW',
        null,
        null,
      ];
  },
});

registerSystemTable('mysql', 'innodb_table_stats', {
  ...col(
    'database_name table_name last_update n_rows clustered_index_size sum_of_other_index_sizes',
    'sssiii',
  ),
  *rows(env) {
    const db = env.db;
    const rows: (readonly unknown[])[] = [];
    for (const t of userTables(db)) {
      const s = db.statisticsDictionary.stored(t)?.table;
      if (s === undefined) continue;
      rows.push([
        schemaOf(t.name),
        tableOf(t.name),
        timestamp(s.lastUpdate ?? 0),
        s.rows,
        s.clusteredPages,
        s.otherPages,
      ]);
    }
    // the table's primary key order: (database_name, table_name), utf8_bin
    yield* rows.sort(
      (a, b) => binary(a[0] as string, b[0] as string) || binary(a[1] as string, b[1] as string),
    );
  },
});

registerSystemTable('mysql', 'innodb_index_stats', {
  ...col(
    'database_name table_name index_name last_update stat_name stat_value sample_size stat_description',
    'sssssiis',
  ),
  *rows(env) {
    const db = env.db;
    const rows: unknown[][] = [];
    for (const t of userTables(db)) {
      const stored = db.statisticsDictionary.stored(t);
      if (stored === undefined) continue;
      const when = timestamp(stored.table.lastUpdate ?? 0);
      for (const ix of [t.primary, ...t.secondary]) {
        const s = stored.indexes.get(ix.name);
        if (s === undefined) continue;
        // n_diff_pfxNN describes the first NN fields of the InnoDB record: a secondary's own
        // columns, then the primary-key columns it carries (dict_stats_save_index_stat)
        const fields = ix.entryColumns.map((c) => t.columns[c]!.name);
        for (const [i, n] of s.nDiff.entries()) {
          const sample = s.sampleSize?.[i] ?? null;
          rows.push([
            schemaOf(t.name),
            tableOf(t.name),
            ix.name,
            when,
            nDiffName(i + 1),
            n,
            sample,
            fields.slice(0, i + 1).join(','),
          ]);
        }
        rows.push([
          schemaOf(t.name),
          tableOf(t.name),
          ix.name,
          when,
          'n_leaf_pages',
          s.leafPages,
          null,
          'Number of leaf pages in the index',
        ]);
        rows.push([
          schemaOf(t.name),
          tableOf(t.name),
          ix.name,
          when,
          'size',
          s.sizePages,
          null,
          'Number of pages in the index',
        ]);
      }
    }
    // primary key (database_name, table_name, index_name, stat_name), utf8_bin
    yield* rows.sort(
      (a, b) =>
        binary(a[0] as string, b[0] as string) ||
        binary(a[1] as string, b[1] as string) ||
        binary(a[2] as string, b[2] as string) ||
        binary(a[4] as string, b[4] as string),
    );
  },
});

registerSystemTable('information_schema', 'INNODB_SYS_TABLESTATS', {
  ...col(
    'TABLE_ID NAME STATS_INITIALIZED NUM_ROWS CLUST_INDEX_SIZE OTHER_INDEX_SIZE MODIFIED_COUNTER AUTOINC REF_COUNT',
    'issiiiiii',
  ),
  *rows(env) {
    // the dict_table_t fields as they are: reading this table computes nothing
    for (const t of userTables(env.db)) {
      const s = env.db.statisticsDictionary.cached(t);
      yield [
        t.id,
        `${splitName(t.name).schema}/${splitName(t.name).table}`,
        s === undefined ? 'Uninitialized' : 'Initialized',
        s?.rows ?? 0,
        s?.clusteredPages ?? 0,
        s?.otherPages ?? 0,
        t.statModifiedCounter,
        0,
        0,
      ];
    }
  },
});

function binary(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
