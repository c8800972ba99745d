import type { Table } from '../storage/table.js';
import type { SqlType } from './types.js';
import type { TableMeta } from '../storage/table-meta.js';
import { type Interrupt, NEVER } from './interrupt.js';
import type { ResultField } from './result-fields.js';

/** A closure computing one value of a bound expression from the current frames. */
export type Ev = () => unknown;

/**
 * The slots of one query block's current row: every column of every FROM source at the source's
 * offset, then one slot per aggregate. Operators write it, compiled expressions read it; an
 * operator that keeps rows (sort, hash, group) saves and restores copies of `v`.
 */
export class Frame {
  v: unknown[] = [];
}

/** Per statement execution: params, an epoch that invalidates cached uncorrelated subqueries. */
export class RunState {
  params: unknown[] = [];
  epoch = 0;
  /** KILL, Ctrl-C and max_statement_time: polled by every loop that can run long. */
  interrupt: Interrupt = NEVER;
  /** The session's time_zone, which TIMESTAMP columns are read in (they are stored in UTC). */
  timeZone: () => string = () => 'SYSTEM';
  /** The stored tables and views the statement names, recorded while it is bound (LOCK TABLES checks them). */
  readonly tables: TableUse[] = [];
}

/** A table a statement names: its storage name, the name it uses (alias or table) and whether it writes it. */
export interface TableUse {
  readonly stored: string;
  readonly name: string;
  readonly write: boolean;
}

export interface ColumnInfo {
  readonly name: string;
  readonly t: SqlType;
  /** The right-hand column of a USING/NATURAL join: found only when qualified. */
  hiddenUnqualified?: boolean;
  /** The hidden row-id primary key of a table created without one: never visible. */
  readonly invisible?: boolean;
  readonly nullable: boolean;
}

export interface IndexHints {
  readonly force: string[];
  readonly use: string[];
  readonly ignore: string[];
}

/** A FROM item of a query block: a stored table, or a materialized derived table/view/CTE. */
export interface Source {
  readonly idx: number;
  readonly alias: string;
  /** The database of a stored table or view named without an alias (`db.t.c` finds it). */
  readonly schema?: string | undefined;
  readonly columns: ColumnInfo[];
  offset: number;
  readonly table?: Table | undefined;
  /** The storage name the statement named `table` by (a temporary table's own name is hidden). */
  readonly tableName?: string | undefined;
  readonly meta?: TableMeta | undefined;
  /** Rows of a derived table, produced when first needed in an execution. */
  readonly derived?: DerivedSource | undefined;
  joinType: 'inner' | 'left';
  /** ON conjuncts of a LEFT JOIN (kept apart from WHERE). */
  on: import('./bound.js').Bound[];
  readonly hints: IndexHints;
  /** Columns referenced anywhere (only these are decoded from storage). */
  readonly used: Set<number>;
}

export interface DerivedSource {
  readonly columns: readonly string[];
  readonly types: readonly SqlType[];
  /** Where each column comes from (exec/result-fields.ts), when the inner query knows. */
  readonly fields?: readonly (ResultField | undefined)[];
  run(emit: (row: unknown[]) => boolean | undefined): void;
}
