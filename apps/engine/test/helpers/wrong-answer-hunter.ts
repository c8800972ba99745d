/**
 * A bounded, seeded hunter for wrong answers in the SQL engine, after SQLancer's two oracles:
 *
 * - **Ternary logic partitioning (TLP)**: for a query Q and a predicate p, every row of Q is in
 *   exactly one of `Q WHERE p`, `Q WHERE NOT p`, `Q WHERE p IS NULL`, so their UNION ALL is Q as a
 *   multiset; likewise MIN/MAX/SUM/COUNT of Q are the MIN/MAX/SUM/sum of counts of the three
 *   parts, and SELECT DISTINCT of Q is the distinct union.
 * - **NoREC**: `SELECT COUNT(*) FROM t WHERE p` (which the optimizer may answer through an index)
 *   equals `SELECT SUM(CASE WHEN p THEN 1 ELSE 0 END) FROM t` (which evaluates p on every row).
 *
 * Schemas are random (INT, BIGINT, DECIMAL, VARCHAR columns with NULLs, secondary indexes of one
 * or two columns, a primary key or none), and so are the predicates (comparisons, NULL-safe
 * equality, IS [NOT] NULL, BETWEEN, IN lists, LIKE, arithmetic, AND/OR/NOT, CASE).
 */
import type { Session } from '../../src/session/session.js';
import { DEFAULT_COLLATION, weightText } from '../../src/storage/collation.js';

/** mulberry32: a small seeded generator, so a finding replays from its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type ColKind = 'int' | 'bigint' | 'dec' | 'str';
interface Col {
  readonly name: string;
  readonly kind: ColKind;
}
interface Schema {
  readonly table: string;
  readonly cols: readonly Col[];
  readonly indexes: readonly string[];
}

/** One disagreement between two statements that must agree. */
export interface Finding {
  readonly oracle: string;
  readonly left: string;
  readonly right: string;
  readonly leftRows: string[];
  readonly rightRows: string[];
}

class Gen {
  readonly r: () => number;
  constructor(r: () => number) {
    this.r = r;
  }
  int(n: number): number {
    return Math.floor(this.r() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
}

function literal(g: Gen, kind: ColKind): string {
  switch (kind) {
    case 'int':
      return String(g.int(11) - 5);
    case 'bigint':
      return g.chance(0.2) ? String(9007199254740990 + g.int(5)) : String(g.int(21) - 10);
    case 'dec':
      return `${g.int(11) - 5}.${g.pick(['0', '5', '25', '75'])}`;
    case 'str':
      return `'${g.pick(['', 'a', 'b', 'ab', 'abc', 'B', 'a ', 'zz', '%', '1'])}'`;
  }
}

function value(g: Gen, kind: ColKind): string {
  if (g.chance(0.15)) return 'NULL';
  return literal(g, kind).replace(/^'(.*)'$/, "'$1'");
}

/** Creates a random table with rows and indexes; returns its schema. */
export function randomTable(s: Session, g: Gen, table: string): Schema {
  const kinds: ColKind[] = ['int', 'bigint', 'dec', 'str'];
  const n = 2 + g.int(4);
  const cols: Col[] = [{ name: 'id', kind: 'int' }];
  for (let i = 0; i < n; i++) cols.push({ name: `c${i}`, kind: g.pick(kinds) });
  const typeOf = (k: ColKind): string =>
    k === 'int' ? 'INT' : k === 'bigint' ? 'BIGINT' : k === 'dec' ? 'DECIMAL(6,2)' : 'VARCHAR(8)';
  const withPk = g.chance(0.8);
  const defs = cols.map(
    (c) => `${c.name} ${typeOf(c.kind)}${c.name === 'id' && withPk ? ' PRIMARY KEY' : ''}`,
  );
  s.query(`CREATE TABLE ${table} (${defs.join(', ')})`);
  const rows = g.int(80);
  const values: string[] = [];
  for (let i = 0; i < rows; i++)
    values.push(`(${cols.map((c) => (c.name === 'id' ? String(i + 1) : value(g, c.kind))).join(', ')})`);
  if (values.length > 0) s.query(`INSERT INTO ${table} VALUES ${values.join(', ')}`);
  const count = g.int(3);
  const indexes: string[] = [];
  for (let i = 0; i < count; i++) {
    const a = g.pick(cols.slice(1));
    const b = g.chance(0.4) ? g.pick(cols.slice(1)) : undefined;
    const parts = b === undefined || b.name === a.name ? [a.name] : [a.name, b.name];
    s.query(`CREATE INDEX ${table}_i${i} ON ${table} (${parts.join(', ')})`);
    indexes.push(`${table}_i${i}`);
  }
  return { table, cols, indexes };
}

function numericKind(k: ColKind): boolean {
  return k !== 'str';
}

/** A random scalar expression of roughly the kind asked for. */
function scalar(g: Gen, cols: readonly Col[], numeric: boolean, depth: number): string {
  const usable = cols.filter((c) => numericKind(c.kind) === numeric);
  if (depth > 0 && numeric && g.chance(0.25)) {
    const op = g.pick(['+', '-', '*']);
    return `(${scalar(g, cols, true, depth - 1)} ${op} ${scalar(g, cols, true, depth - 1)})`;
  }
  if (depth > 0 && g.chance(0.08))
    return `CASE WHEN ${predicate(g, cols, depth - 1)} THEN ${scalar(g, cols, numeric, 0)} ELSE ${scalar(g, cols, numeric, 0)} END`;
  if (depth > 0 && g.chance(0.15)) {
    const x = scalar(g, cols, numeric, depth - 1);
    const y = scalar(g, cols, numeric, 0);
    if (numeric)
      return g.pick([
        `ABS(${x})`,
        `COALESCE(${x}, ${y})`,
        `IFNULL(${x}, ${y})`,
        `NULLIF(${x}, ${y})`,
        `CAST(${x} AS SIGNED)`,
        `CAST(${x} AS DECIMAL(10,2))`,
        `LENGTH(${scalar(g, cols, false, 0)})`,
        `GREATEST(${x}, ${y})`,
        `(${x} DIV 3)`,
        `(${x} % 4)`,
        `ROUND(${x})`,
      ]);
    return g.pick([
      `UPPER(${x})`,
      `LOWER(${x})`,
      `CONCAT(${x}, ${y})`,
      `TRIM(${x})`,
      `SUBSTRING(${x}, 1, 2)`,
      `COALESCE(${x}, ${y})`,
    ]);
  }
  if (usable.length > 0 && g.chance(0.75)) return g.pick(usable).name;
  return literal(g, numeric ? g.pick(['int', 'dec', 'bigint'] as const) : 'str');
}

/** A random predicate (it may be NULL for some rows). */
export function predicate(g: Gen, cols: readonly Col[], depth: number): string {
  if (depth > 0 && g.chance(0.35)) {
    const op = g.pick(['AND', 'OR']);
    return `(${predicate(g, cols, depth - 1)} ${op} ${predicate(g, cols, depth - 1)})`;
  }
  if (depth > 0 && g.chance(0.1)) return `NOT (${predicate(g, cols, depth - 1)})`;
  const numeric = g.chance(0.7);
  const a = scalar(g, cols, numeric, depth > 0 ? 1 : 0);
  switch (g.int(7)) {
    case 0:
      return `${a} IS ${g.pick(['', 'NOT '])}NULL`;
    case 1:
      return `${a} <=> ${scalar(g, cols, numeric, 0)}`;
    case 2: {
      const lo = literal(g, numeric ? 'int' : 'str');
      const hi = literal(g, numeric ? 'int' : 'str');
      return `${a} ${g.pick(['', 'NOT '])}BETWEEN ${lo} AND ${hi}`;
    }
    case 3: {
      const n = 1 + g.int(4);
      const items = Array.from({ length: n }, () =>
        g.chance(0.1) ? 'NULL' : literal(g, numeric ? g.pick(['int', 'dec'] as const) : 'str'),
      );
      return `${a} ${g.pick(['', 'NOT '])}IN (${items.join(', ')})`;
    }
    case 4:
      if (!numeric)
        return `${a} ${g.pick(['', 'NOT '])}LIKE ${g.pick(["'a%'", "'%b'", "'_'", "'%'", "'a_c'"])}`;
      return `${a} ${g.pick(['=', '<>', '<', '<=', '>', '>='])} ${scalar(g, cols, true, 0)}`;
    case 5:
      // across types now and then: strings compared with numbers as MySQL converts them
      return `${a} ${g.pick(['=', '<>', '<', '>='])} ${scalar(g, cols, g.chance(0.8) ? numeric : !numeric, 1)}`;
    default:
      return `${a} ${g.pick(['=', '<>', '<', '<=', '>', '>=', '!='])} ${scalar(g, cols, numeric, 0)}`;
  }
}

function rowsOf(s: Session, sql: string): string[] {
  return s
    .query(sql)
    .rows.map((r) => JSON.stringify(r.map((v) => (typeof v === 'bigint' ? v.toString() : normal(v)))));
}

/** Numbers and DECIMAL strings compared by value (a DECIMAL '1.50' and '1.5' are one value). */
function normal(v: unknown): unknown {
  if (typeof v === 'string' && /^-?\d+\.\d+$/.test(v)) return String(Number(v));
  if (typeof v === 'number') return String(v);
  return v;
}

function sorted(xs: string[]): string[] {
  return [...xs].sort();
}

/** Checks run and checks skipped because a side failed (for the test to see the hunt did work). */
export const tally: { compared: number; failed: number; errors: Map<string, number> } = {
  compared: 0,
  failed: 0,
  errors: new Map(),
};

/**
 * Runs both statements; a finding when both run and disagree. A statement that fails on one
 * side only is skipped (counted in `tally.failed`): the two sides may evaluate an expression on
 * different rows, and an error raised by a row one side filters out earlier is no wrong answer.
 */
export function compare(
  s: Session,
  oracle: string,
  left: string,
  right: string,
  asSet = false,
): Finding | undefined {
  let a: string[] | Error;
  let b: string[] | Error;
  try {
    a = rowsOf(s, left);
  } catch (e) {
    a = e as Error;
  }
  try {
    b = rowsOf(s, right);
  } catch (e) {
    b = e as Error;
  }
  if (a instanceof Error || b instanceof Error) {
    tally.failed++;
    const m = (a instanceof Error ? a : (b as Error)).message.slice(0, 60);
    tally.errors.set(m, (tally.errors.get(m) ?? 0) + 1);
    return undefined;
  }
  tally.compared++;
  const x = asSet ? [...new Set(a)].sort() : sorted(a);
  const y = asSet ? [...new Set(b)].sort() : sorted(b);
  if (JSON.stringify(x) === JSON.stringify(y)) return undefined;
  // text compares under the columns' collation (utf8mb4_general_ci): a group or a DISTINCT shows
  // any one of the values it holds ('a' or 'A ', 'b' or 'B'), so the forms agree when their rows
  // are equal under it
  const fx = folded(x, asSet);
  const fy = folded(y, asSet);
  if (JSON.stringify(fx) === JSON.stringify(fy)) return undefined;
  return { oracle, left, right, leftRows: x, rightRows: y };
}

/** Rows (JSON arrays) with every string value replaced by its weight string under the default collation. */
function folded(rows: readonly string[], asSet: boolean): string[] {
  const f = rows.map((r) =>
    JSON.stringify(
      (JSON.parse(r) as unknown[]).map((v) => (typeof v === 'string' ? weightText(v, DEFAULT_COLLATION) : v)),
    ),
  );
  return asSet ? [...new Set(f)].sort() : f.sort();
}

/** One round: a fresh schema in `s`, then `queries` random checks; the findings. */
export function hunt(s: Session, seed: number, queries: number): Finding[] {
  const g = new Gen(rng(seed));
  const t = randomTable(s, g, `h${seed}_a`);
  const u = g.chance(0.4) ? randomTable(s, g, `h${seed}_b`) : undefined;
  const out: Finding[] = [];
  for (let q = 0; q < queries; q++) {
    const join = u !== undefined && g.chance(0.3);
    const cols = join
      ? [
          ...t.cols.map((c) => ({ ...c, name: `x.${c.name}` })),
          ...u.cols.map((c) => ({ ...c, name: `y.${c.name}` })),
        ]
      : t.cols;
    const on = join ? predicate(g, cols, 1) : '';
    const kind = g.pick(['JOIN', 'LEFT JOIN']);
    const fromWith = (hints: boolean): string => {
      const ig = (x: Schema): string =>
        hints && x.indexes.length > 0 ? ` IGNORE INDEX (${x.indexes.join(', ')})` : '';
      return join ? `${t.table} x${ig(t)} ${kind} ${u!.table} y${ig(u!)} ON ${on}` : `${t.table}${ig(t)}`;
    };
    const from = fromWith(false);
    let p = predicate(g, cols, 2);
    if (!join && u !== undefined && g.chance(0.35)) {
      // a subquery over the other table: IN, NOT IN, EXISTS (correlated) — semi-join territory
      const inner = u.cols.map((c) => ({ ...c, name: `y.${c.name}` }));
      const outerCol = g.pick(t.cols);
      const innerCol = g.pick(
        inner.filter((c) => numericKind(c.kind) === numericKind(outerCol.kind)).concat(inner[0]!),
      );
      const where = predicate(g, inner, 1);
      const sub = g.pick([
        `${t.table}.${outerCol.name} ${g.pick(['', 'NOT '])}IN (SELECT ${innerCol.name} FROM ${u.table} y WHERE ${where})`,
        `${g.pick(['', 'NOT '])}EXISTS (SELECT 1 FROM ${u.table} y WHERE ${innerCol.name} = ${t.table}.${outerCol.name} AND ${where})`,
        `${t.table}.${outerCol.name} ${g.pick(['=', '>', '<='])} (SELECT ${g.pick(['MAX', 'MIN', 'COUNT'])}(${innerCol.name}) FROM ${u.table} y WHERE ${where})`,
      ]);
      p = g.chance(0.5) ? sub : `(${p}) ${g.pick(['AND', 'OR'])} ${sub}`;
    }
    const shown = g.pick(cols).name;
    const parts = (select: string): string =>
      [`${select} WHERE ${p}`, `${select} WHERE NOT (${p})`, `${select} WHERE (${p}) IS NULL`].join(
        ' UNION ALL ',
      );
    let f: Finding | undefined;
    switch (g.int(7)) {
      case 6: {
        // the same query through the indexes and without them, with the join buffers on or off:
        // every plan must give the same rows
        const cols2 = `${shown}, ${g.pick(cols).name}`;
        const level = g.pick([0, 2, 4, 8]);
        const sw = g.pick(['index_condition_pushdown=off', 'mrr=on,mrr_cost_based=off', 'default']);
        s.query(`SET join_cache_level = ${level}, optimizer_switch = '${sw}'`);
        try {
          f = compare(
            s,
            `plans (join_cache_level ${level}, ${sw})`,
            `SELECT ${cols2} FROM ${from} WHERE ${p}`,
            `SELECT ${cols2} FROM ${fromWith(true)} WHERE ${p}`,
          );
        } finally {
          s.query("SET join_cache_level = DEFAULT, optimizer_switch = 'default'");
        }
        break;
      }
      case 5: {
        const sel = `SELECT ${shown}, COUNT(*) FROM ${from}`;
        // GROUP BY over the whole, against the groups of each part merged (counts added)
        const whole = `${sel} GROUP BY ${shown}`;
        const split = `SELECT k, SUM(n) FROM (${[`${sel} WHERE ${p} GROUP BY ${shown}`, `${sel} WHERE NOT (${p}) GROUP BY ${shown}`, `${sel} WHERE (${p}) IS NULL GROUP BY ${shown}`].map((x) => x.replace(`SELECT ${shown}, COUNT(*)`, `SELECT ${shown} AS k, COUNT(*) AS n`)).join(' UNION ALL ')}) z GROUP BY k`;
        f = compare(s, 'TLP group by', whole, split);
        break;
      }
      case 0: {
        const sel = `SELECT ${shown} FROM ${from}`;
        f = compare(s, 'TLP where', sel, parts(sel));
        break;
      }
      case 1: {
        const sel = `SELECT DISTINCT ${shown} FROM ${from}`;
        f = compare(s, 'TLP distinct', sel, parts(sel), true);
        break;
      }
      case 2: {
        const agg = g.pick(['MIN', 'MAX', 'SUM', 'COUNT']);
        const whole = `SELECT ${agg}(${shown}) FROM ${from}`;
        const outer = agg === 'COUNT' ? 'SUM' : agg;
        const split = `SELECT ${outer}(v) FROM (${parts(`SELECT ${agg}(${shown}) AS v FROM ${from}`)}) z`;
        f = compare(s, `TLP ${agg}`, whole, split);
        // SUM over no rows is NULL on both sides, COUNT is 0 against SUM's 0: equal as written
        break;
      }
      case 3: {
        f = compare(
          s,
          'NoREC',
          `SELECT COUNT(*) FROM ${from} WHERE ${p}`,
          `SELECT SUM(CASE WHEN ${p} THEN 1 ELSE 0 END) FROM ${from}`,
        );
        if (f !== undefined && f.leftRows[0] === '["0"]' && f.rightRows[0] === '[null]') f = undefined;
        break;
      }
      default: {
        const sel = `SELECT ${shown} FROM ${from} WHERE ${p}`;
        f = compare(
          s,
          'NoREC rows',
          sel,
          `SELECT ${shown} FROM ${from} WHERE (CASE WHEN ${p} THEN 1 ELSE 0 END) = 1`,
        );
      }
    }
    if (f !== undefined) out.push(f);
  }
  return out;
}
