import { arr, obj, tagOf } from '../sql/ast.js';
import { dblText } from '../exec/convert.js';
import { decText, expandExp, parseDec, rescale } from '../exec/decimal.js';
import type { ColumnType } from '../storage/types.js';

/**
 * A column's DEFAULT as MariaDB 10.11 shows it. The dictionary keeps a default as the parser's
 * tree of the expression (JSON); DESCRIBE shows a literal as its bare value and an expression as
 * MariaDB prints it (`current_timestamp()`, `curdate()`, `(1 + 2)`), and SHOW CREATE TABLE and
 * information_schema.COLUMNS quote a string literal (`'x''y'`) and write the rest as DESCRIBE does.
 */
export interface DefaultText {
  /** What DESCRIBE / SHOW COLUMNS show. */
  readonly bare: string;
  /** What SHOW CREATE TABLE writes after DEFAULT and information_schema.COLUMNS.COLUMN_DEFAULT holds. */
  readonly sql: string;
}

/** Functions MariaDB prints under another name (its canonical one). */
const CANONICAL: Record<string, string> = {
  CURRENT_TIMESTAMP: 'current_timestamp',
  NOW: 'current_timestamp',
  LOCALTIME: 'current_timestamp',
  LOCALTIMESTAMP: 'current_timestamp',
  CURRENT_DATE: 'curdate',
  CURDATE: 'curdate',
  CURRENT_TIME: 'curtime',
  CURTIME: 'curtime',
};

const BINARY: Record<string, string> = {
  Plus: '+',
  Minus: '-',
  Multiply: '*',
  Divide: '/',
  Modulo: '%',
  MyIntegerDivide: 'DIV',
  StringConcat: '||',
};

export function defaultText(json: string, column?: ColumnType): DefaultText {
  const tree: unknown = JSON.parse(json);
  const stored = column === undefined ? undefined : numberInColumn(tree, column);
  if (stored !== undefined) return { bare: stored, sql: stored };
  const [t, v] = tagOf(tree);
  // a number given to a text column is held as its text, and shown quoted
  if (t === 'Value' && (column?.kind === 'char' || column?.kind === 'varchar')) {
    const [vt, vv] = tagOf(obj(v).value);
    if (vt === 'Number') return { bare: String(arr(vv)[0]), sql: `'${String(arr(vv)[0])}'` };
  }
  if (t === 'Value') {
    const [vt, vv] = tagOf(obj(v).value);
    if (vt === 'SingleQuotedString' || vt === 'DoubleQuotedString') {
      const s = String(vv);
      return { bare: s, sql: `'${s.replace(/'/g, "''")}'` };
    }
  }
  const text = expressionText(tree);
  return { bare: text, sql: text };
}

/** An expression as MariaDB's item printer writes it (the kinds a column default uses). */
function expressionText(n: unknown): string {
  const [t, v] = tagOf(n);
  switch (t) {
    case 'Value': {
      const [vt, vv] = tagOf(obj(v).value);
      if (vt === 'Number') return String(arr(vv)[0]);
      if (vt === 'Null') return 'NULL';
      if (vt === 'Boolean') return vv === true ? '1' : '0';
      return `'${String(vv).replace(/'/g, "''")}'`;
    }
    case 'Nested':
      return expressionText(v);
    case 'UnaryOp': {
      const o = obj(v);
      const inner = expressionText(o.expr);
      if (o.op === 'Minus') return `-${inner}`;
      if (o.op === 'Plus') return inner;
      return `${String(o.op).toLowerCase()} ${inner}`;
    }
    case 'BinaryOp': {
      const o = obj(v);
      const op = BINARY[String(o.op)] ?? String(o.op).toLowerCase();
      return `(${expressionText(o.left)} ${op} ${expressionText(o.right)})`;
    }
    case 'Identifier':
      return `\`${String(obj(v).value)}\``;
    case 'TypedString': {
      const o = obj(v);
      const [, sv] = tagOf(obj(o.value).value ?? o.value);
      return `'${String(sv).replace(/'/g, "''")}'`;
    }
    case 'Function': {
      const o = obj(v);
      const parts = arr(o.name).map((p) => String(obj(tagOf(p)[1]).value ?? ''));
      const raw = parts[parts.length - 1] ?? '';
      const name = CANONICAL[raw.toUpperCase()] ?? raw.toLowerCase();
      const args: string[] = [];
      if (o.args !== 'None' && o.args !== undefined) {
        const list = obj(tagOf(o.args)[1]);
        for (const a of arr(list.args)) {
          const [, ex] = tagOf(a);
          const [kind, e] = tagOf(ex);
          args.push(kind === 'Expr' ? expressionText(e) : '*');
        }
      }
      return `${name}(${args.join(', ')})`;
    }
    default:
      return `(${t.toLowerCase()})`;
  }
}

/**
 * A constant default of a number column as the column holds it, which is how MariaDB shows it
 * (`DEFAULT 1.5` of a DECIMAL(5,2) is 1.50, `DEFAULT 1e3` of a DOUBLE 1000, `DEFAULT '7'` of an
 * INT 7); undefined for anything else (an expression, a text column, a value that is no number).
 */
function numberInColumn(tree: unknown, column: ColumnType): string | undefined {
  const kind = column.kind;
  if (kind !== 'int' && kind !== 'bigint' && kind !== 'decimal' && kind !== 'double') return undefined;
  let [t, v] = tagOf(tree);
  let sign = '';
  if (t === 'UnaryOp' && obj(v).op === 'Minus') {
    sign = '-';
    [t, v] = tagOf(obj(v).expr);
  }
  if (t !== 'Value') return undefined;
  const [vt, vv] = tagOf(obj(v).value);
  const raw =
    vt === 'Number' ? String(arr(vv)[0]) : vt === 'SingleQuotedString' ? String(vv).trim() : undefined;
  if (raw === undefined || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(raw)) return undefined;
  const text = `${sign}${raw}`;
  if (kind === 'double') return dblText(Number(text));
  // exact: the digits at the column's scale (0 for an integer), rounded half away from zero
  const scale = kind === 'decimal' ? column.scale : 0;
  const exact = parseDec(expandExp(text.replace(/^\+/, '')));
  if (exact === undefined) return undefined;
  return decText(rescale(exact[0], exact[1], scale), scale, scale);
}
