// Comparing the engine's answer to a statement with MariaDB's recorded one: column names, the class
// of each column's type (integer, decimal with its scale, floating point, string, date and time
// kinds), values as the text protocol sends them, errors by number, warnings by level, code and
// message, and affected rows.
import { columnMeta } from '../../src/server/column-types.js';
import { doubleText } from '../../src/server/packets/text-row.js';
import { type QueryResult, type Session, SqlError } from '../../src/index.js';
import { type RecordedColumn, type RecordedStatement, textOf } from './mariadb-recorded.js';

/** A column type's class: what a client can rely on across MySQL type codes of one family. */
export function typeClass(type: number, decimals: number, charset: number): string {
  switch (type) {
    case 1:
    case 2:
    case 3:
    case 8:
    case 9:
      return 'int';
    case 0:
    case 246:
      return `decimal(${decimals})`;
    case 4:
    case 5:
      return 'float';
    case 10:
      return 'date';
    case 7:
    case 12:
      return 'datetime';
    case 11:
      return 'time';
    case 13:
      return 'year';
    case 6:
      return 'null';
    default:
      return charset === 63 ? 'binary' : 'string';
  }
}

export interface Answer {
  readonly columns?: readonly string[];
  readonly types?: readonly string[];
  readonly rows?: readonly (readonly (string | null)[])[];
  readonly affectedRows?: number;
  readonly error?: number;
  readonly warnings?: readonly (readonly [string, number, string])[];
}

export function recordedAnswer(st: RecordedStatement): Answer {
  if (st.error !== undefined) return { error: st.error.errno };
  const warnings = st.warnings ?? [];
  if (st.rows === undefined) return { affectedRows: st.affectedRows ?? 0, warnings };
  const cols = st.columns ?? [];
  return {
    columns: cols.map((c) => c.name),
    types: cols.map((c: RecordedColumn) => typeClass(c.type, c.decimals, c.charset)),
    rows: st.rows,
    warnings,
  };
}

export function engineAnswer(s: Session, sql: string): Answer {
  let r: QueryResult;
  try {
    r = s.query(sql);
  } catch (e) {
    if (e instanceof SqlError) return { error: e.errno };
    return { error: -1, warnings: [['Crash', -1, String(e)]] };
  }
  const warnings = r.warnings > 0 ? s.diagnostics.last.map((w) => [w[0], w[1], w[2]] as const) : [];
  if (r.columns.length === 0) return { affectedRows: r.affectedRows, warnings };
  const types =
    r.types === undefined
      ? undefined
      : r.types.map((t, i) => {
          const m = columnMeta(r.columns[i]!, t);
          return typeClass(m.type, m.decimals, m.charset);
        });
  return {
    columns: r.columns,
    ...(types === undefined ? {} : { types }),
    rows: r.rows.map((row) =>
      row.map((v, i) => {
        const t = r.types?.[i];
        return typeof v === 'number' && t?.kind === 'dbl'
          ? doubleText(v, t.scale, t.float === true)
          : textOf(v);
      }),
    ),
    warnings,
  };
}

/**
 * What differs between two answers, under a statement's `check`: 'all', 'columns' (names),
 * 'types' (names and type classes), 'count' (names and the number of rows), 'error'.
 */
export function differences(want: Answer, got: Answer, check = 'all'): string[] {
  const out: string[] = [];
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  if (want.error !== undefined || got.error !== undefined) {
    if (want.error !== got.error) out.push(`error ${want.error ?? 'none'} ≠ ${got.error ?? 'none'}`);
    return out;
  }
  if (check === 'error') return out;
  if (want.rows === undefined || got.rows === undefined) {
    if ((want.rows === undefined) !== (got.rows === undefined)) out.push('rows vs no rows');
    else if (want.affectedRows !== got.affectedRows)
      out.push(`affected ${want.affectedRows} ≠ ${got.affectedRows}`);
  } else {
    if (!same(want.columns, got.columns))
      out.push(`columns ${JSON.stringify(want.columns)} ≠ ${JSON.stringify(got.columns)}`);
    if (check === 'count' && want.rows.length !== got.rows.length)
      out.push(`${want.rows.length} rows ≠ ${got.rows.length}`);
    if (check === 'all') {
      if (got.types !== undefined && !same(want.types, got.types))
        out.push(`types ${JSON.stringify(want.types)} ≠ ${JSON.stringify(got.types)}`);
      if (!same(want.rows, got.rows))
        out.push(`rows ${JSON.stringify(want.rows)} ≠ ${JSON.stringify(got.rows)}`);
    }
  }
  if (check === 'all' && !same(want.warnings, got.warnings))
    out.push(`warnings ${JSON.stringify(want.warnings)} ≠ ${JSON.stringify(got.warnings)}`);
  return out;
}
