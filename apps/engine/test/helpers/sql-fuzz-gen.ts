// Random small tables and random SELECTs over them, limited to the shapes where SQLite's
// answer is MySQL's answer, so that SQLite can be the oracle:
//
// - no `/` (MySQL's `/` is decimal division, SQLite's is integer division on integers); MySQL's
//   DIV is SQLite's `/` on integers (truncating, NULL for a zero divisor), so the MySQL text's ` DIV `
//   is written ` / ` for SQLite ({@link sqliteText});
//   `*` only on the INT column by a small constant, so nothing overflows 64 bits (SQLite turns an
//   overflowing integer into a REAL, MySQL raises an error); SUM only over the INT column
//   (SUM over 64 joined rows of the BIGINT column could pass 2^63: SQLite raises, MySQL widens)
// - text is lowercase letters without trailing spaces or punctuation, so a case-insensitive, PAD SPACE collation
//   and a binary one order and compare it alike; text is never compared with numbers (the two
//   engines convert differently)
// - scalar subqueries are aggregates (one row; MySQL refuses more, SQLite takes the first)
// - LIMIT only under an ORDER BY of every output column, so the answer is unique
// - GROUP BY queries select only grouped columns and aggregates (ONLY_FULL_GROUP_BY)
// - AVG is compared at MySQL's scale (the argument's plus 4) after rounding SQLite's double;
//   groups hold at most 64 rows (tables of at most 8 rows when AVG is selected), so the exact
//   quotient never ends in a tie SQLite's double could round the other way
// - operators are also chained without parentheses where the two grammars agree: `* DIV %` bind
//   tighter than `+ -` (left to right within a level), comparisons tighter than NOT, NOT tighter
//   than AND, AND tighter than OR (not `=` beside `<`: SQLite ranks `=` below `<`; not the bit
//   operators: SQLite gives `& | << >>` one level)
import fc from 'fast-check';

/** The SQLite text of a generated statement: MySQL's integer DIV is SQLite's `/` on integers. */
export function sqliteText(sql: string): string {
  return sql.replaceAll(' DIV ', ' / ');
}

export interface FuzzTable {
  readonly name: 't1' | 't2';
  /** rows of (a INT, b BIGINT, s VARCHAR(8)) for t1, (a INT, c INT, s VARCHAR(8)) for t2 */
  readonly rows: readonly (readonly [number | null, number | bigint | null, string | null])[];
}

export interface FuzzCase {
  readonly tables: readonly [FuzzTable, FuzzTable];
  readonly sql: string;
  /** output columns computed by AVG (compared at scale 4) */
  readonly avgColumns: readonly number[];
  /** whether row order is part of the answer (ORDER BY over every output column) */
  readonly ordered: boolean;
  /**
   * Session settings for enginekit only (they must not change an answer): a join buffer of
   * MySQL's minimum 128 bytes, so block joins run in many blocks, or a join algorithm switched off.
   */
  readonly settings?: readonly string[];
}

const SETTINGS: readonly (readonly string[])[] = [
  [],
  [],
  ['SET SESSION join_buffer_size = 128'],
  ["SET SESSION optimizer_switch = 'hash_join=off'"],
  [
    "SET SESSION optimizer_switch = 'block_nested_loop=off,hash_join=off'",
    'SET SESSION join_buffer_size = 128',
  ],
];

const INT_EDGE = [0, 1, -1, 2, 3, 7, -7, 100, -100, 2147483647, -2147483648, 65536];
const BIG_EDGE = [
  0n,
  1n,
  -1n,
  9007199254740993n,
  -9007199254740993n,
  576460752303423487n,
  -576460752303423488n,
];

const intValue = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -5, max: 5 }) },
  { weight: 1, arbitrary: fc.constantFrom(...INT_EDGE) },
);
const bigValue = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -5, max: 5 }) },
  { weight: 1, arbitrary: fc.constantFrom(...BIG_EDGE) },
);
const textValue = fc.constantFrom('', 'a', 'b', 'ab', 'ba', 'abc', 'bab', 'zz');
const nullable = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: 4, arbitrary: a }, { weight: 1, arbitrary: fc.constant(null) });

const t1Row = fc.tuple(nullable(intValue), nullable(bigValue), nullable(textValue));
const t2Row = fc.tuple(nullable(intValue), nullable(intValue), nullable(textValue));

/** A SQL integer literal (negative numbers in parentheses, so `a - -1` stays valid). */
const lit = (n: number | bigint): string => (n < 0 ? `(${n})` : String(n));

/** Integer-valued expressions over the columns of `cols` (qualified names). */
function intExpr(cols: readonly string[], depth: number): fc.Arbitrary<string> {
  const leaf = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...cols) },
    { weight: 1, arbitrary: intValue.map(lit) },
  );
  if (depth <= 0) return leaf;
  const sub = intExpr(cols, depth - 1);
  return fc.oneof(
    { weight: 4, arbitrary: leaf },
    {
      weight: 1,
      arbitrary: fc.tuple(sub, fc.constantFrom('+', '-'), sub).map(([x, o, y]) => `(${x} ${o} ${y})`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...cols.filter((c) => !c.endsWith('.b'))), fc.integer({ min: -3, max: 3 }))
        .map(([c, k]) => `(${c} * ${lit(k)})`),
    },
    { weight: 1, arbitrary: fc.tuple(sub, intValue).map(([x, k]) => `coalesce(${x}, ${lit(k)})`) },
    // % by a constant, zero included: both give the dividend's sign, and NULL for % 0
    {
      weight: 1,
      arbitrary: fc.tuple(sub, fc.integer({ min: -3, max: 3 })).map(([x, k]) => `(${x} % ${lit(k)})`),
    },
    { weight: 1, arbitrary: fc.tuple(sub, sub).map(([x, y]) => `nullif(${x}, ${y})`) },
    { weight: 2, arbitrary: chain(cols) },
    { weight: 1, arbitrary: sub.map((x) => `abs(${x})`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(predicate(cols, [], depth - 1), sub)
        .map(([p, x]) => `(case when ${p} then ${x} end)`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(predicate(cols, [], depth - 1), sub, sub)
        .map(([p, x, y]) => `(case when ${p} then ${x} else ${y} end)`),
    },
  );
}

/**
 * Three or four operands joined by `+ - DIV %` and `*` by a small constant, without parentheses
 * (precedence and left-to-right grouping decide), in parentheses as a whole.
 */
function chain(cols: readonly string[]): fc.Arbitrary<string> {
  const leaf = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...cols) },
    { weight: 1, arbitrary: fc.integer({ min: -5, max: 7 }).map(lit) },
  );
  const step = fc.tuple(fc.constantFrom('+', '-', 'DIV', '%'), leaf).map(([o, x]) => ` ${o} ${x}`);
  // at most one product, so no chain (nor a sum of two) passes 2^63 on the BIGINT column's edges
  return fc
    .tuple(
      leaf,
      fc.array(step, { minLength: 2, maxLength: 3 }),
      fc.option(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: -3, max: 3 })), {
        nil: undefined,
      }),
    )
    .map(([first, steps, product]) => {
      if (product !== undefined) steps.splice(product[0] % (steps.length + 1), 0, ` * ${lit(product[1])}`);
      return `(${first}${steps.join('')})`;
    });
}

/** Boolean predicates over integer columns `cols` and text columns `texts`. */
function predicate(cols: readonly string[], texts: readonly string[], depth: number): fc.Arbitrary<string> {
  const e = intExpr(cols, 0);
  const atoms: { weight: number; arbitrary: fc.Arbitrary<string> }[] = [
    {
      weight: 4,
      arbitrary: fc
        .tuple(e, fc.constantFrom('=', '<>', '<', '<=', '>', '>='), e)
        .map(([x, o, y]) => `${x} ${o} ${y}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(e, intValue, intValue)
        .map(([x, lo, hi]) => `${x} between ${lit(lo)} and ${lit(hi)}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(e, fc.boolean(), fc.array(nullable(intValue), { minLength: 1, maxLength: 4 }))
        .map(
          ([x, not, l]) =>
            `${x} ${not ? 'not in' : 'in'} (${l.map((v) => (v === null ? 'null' : lit(v))).join(', ')})`,
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...cols), fc.boolean())
        .map(([c, n]) => `${c} is ${n ? 'not ' : ''}null`),
    },
  ];
  if (texts.length > 0) {
    atoms.push(
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.constantFrom(...texts),
            fc.boolean(),
            fc.constantFrom('a%', '%a', '%b%', '_', '__', '', '%', 'b_b'),
          )
          .map(([c, not, p]) => `${c} ${not ? 'not like' : 'like'} '${p}'`),
      },
      {
        // an escaped wildcard: SQLite has no default LIKE escape, MySQL's is the backslash, so name one
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom(...texts), fc.constantFrom('a!%', '!_', 'b!%%'))
          .map(([c, p]) => `${c} like '${p}' escape '!'`),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom(...texts), fc.constantFrom('=', '<>', '<', '>='), textValue)
          .map(([c, o, v]) => `${c} ${o} '${v}'`),
      },
    );
  }
  const atom = fc.oneof(...atoms);
  if (depth <= 0) return atom;
  const sub = predicate(cols, texts, depth - 1);
  // comparisons joined by NOT, AND and OR without parentheses
  const compare = fc
    .tuple(fc.boolean(), e, fc.constantFrom('=', '<>', '<', '>='), e)
    .map(([not, x, o, y]) => `${not ? 'not ' : ''}${x} ${o} ${y}`);
  const flat = fc
    .tuple(compare, fc.array(fc.tuple(fc.constantFrom('and', 'or'), compare), { minLength: 1, maxLength: 3 }))
    .map(([first, rest]) => `(${first}${rest.map(([o, c]) => ` ${o} ${c}`).join('')})`);
  return fc.oneof(
    { weight: 3, arbitrary: atom },
    { weight: 1, arbitrary: flat },
    {
      weight: 1,
      arbitrary: fc.tuple(sub, fc.constantFrom('and', 'or'), sub).map(([x, o, y]) => `(${x} ${o} ${y})`),
    },
    { weight: 1, arbitrary: sub.map((x) => `not (${x})`) },
  );
}

/** Predicates on t1 holding a subquery over t2 (IN, NOT IN, EXISTS correlated, scalar aggregate). */
const subqueryPredicate: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.boolean(), fc.constantFrom('t2.a', 't2.c'), predicate(['t2.a', 't2.c'], ['t2.s'], 1))
    .map(([not, col, p]) => `t1.a ${not ? 'not in' : 'in'} (select ${col} from t2 where ${p})`),
  fc
    .tuple(fc.boolean(), predicate(['t2.a', 't2.c', 't1.b'], ['t2.s'], 0))
    .map(([not, p]) => `${not ? 'not ' : ''}exists (select 1 from t2 where t2.a = t1.a and ${p})`),
  fc
    .tuple(
      fc.constantFrom('<', '>=', '='),
      fc.constantFrom('max(t2.c)', 'min(t2.a)', 'count(*)', 'sum(t2.c)'),
    )
    .map(([o, agg]) => `t1.a ${o} (select ${agg} from t2)`),
  fc
    .tuple(fc.constantFrom('count(*)', 'max(t2.c)'), fc.integer({ min: 0, max: 2 }))
    .map(([agg, k]) => `(select ${agg} from t2 where t2.a = t1.a) > ${k}`),
  // a subquery inside a subquery, the inner one correlated to the middle one
  fc
    .tuple(fc.boolean(), fc.constantFrom('min(x.a)', 'max(x.b)', 'count(*)'))
    .map(
      ([not, agg]) =>
        `${not ? 'not ' : ''}exists (select 1 from t2 where t2.a = t1.a and t2.c >= (select ${agg} from t1 as x where x.s = t2.s))`,
    ),
);

/** ORDER BY every output column by ordinal (random order and direction), maybe with LIMIT/OFFSET. */
function orderAll(width: number): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.shuffledSubarray(
        Array.from({ length: width }, (_, k) => k + 1),
        { minLength: width, maxLength: width },
      ),
      fc.array(fc.boolean(), { minLength: width, maxLength: width }),
      fc.option(
        fc.tuple(
          fc.integer({ min: 0, max: 6 }),
          fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
        ),
        {
          nil: undefined,
        },
      ),
    )
    .map(([order, desc, limit]) => {
      const by = order.map((c, k) => `${c}${desc[k] ? ' desc' : ''}`).join(', ');
      const lim =
        limit === undefined ? '' : ` limit ${limit[0]}${limit[1] === undefined ? '' : ` offset ${limit[1]}`}`;
      return ` order by ${by}${lim}`;
    });
}

interface Shape {
  readonly sql: string;
  readonly width: number;
  readonly avgColumns: readonly number[];
}

const T1_INT = ['t1.a', 't1.b'];
const T2_INT = ['t2.a', 't2.c'];

/** SELECT list of 1–3 integer expressions or text columns. */
function selectList(ints: readonly string[], texts: readonly string[]): fc.Arbitrary<string[]> {
  return fc.array(
    fc.oneof({ weight: 3, arbitrary: intExpr(ints, 1) }, { weight: 1, arbitrary: fc.constantFrom(...texts) }),
    {
      minLength: 1,
      maxLength: 3,
    },
  );
}

const filterShape: fc.Arbitrary<Shape> = fc
  .tuple(
    selectList(T1_INT, ['t1.s']),
    fc.option(predicate(T1_INT, ['t1.s'], 2), { nil: undefined }),
    fc.boolean(),
  )
  .map(([cols, where, distinct]) => ({
    sql: `select ${distinct ? 'distinct ' : ''}${cols.join(', ')} from t1${where ? ` where ${where}` : ''}`,
    width: cols.length,
    avgColumns: [],
  }));

const joinShape: fc.Arbitrary<Shape> = fc
  .tuple(
    selectList([...T1_INT, ...T2_INT], ['t1.s', 't2.s']),
    fc.constantFrom('join', 'left join', ','),
    fc.constantFrom('t1.a = t2.a', 't1.a = t2.c', 't1.s = t2.s', 't1.b = t2.c'),
    fc.option(predicate([...T1_INT, ...T2_INT], ['t1.s', 't2.s'], 1), { nil: undefined }),
  )
  .map(([cols, kind, on, where]) => {
    const from =
      kind === ','
        ? `t1, t2 where ${on}${where ? ` and ${where}` : ''}`
        : `t1 ${kind} t2 on ${on}${where ? ` where ${where}` : ''}`;
    return { sql: `select ${cols.join(', ')} from ${from}`, width: cols.length, avgColumns: [] };
  });

const AGGREGATES: readonly (readonly [string, boolean])[] = [
  ['count(*)', false],
  ['count(t1.b)', false],
  ['count(distinct t1.s)', false],
  ['sum(t1.a)', false],
  ['min(t1.b)', false],
  ['max(t1.s)', false],
  ['min(t1.s)', false],
  ['avg(t1.a)', true],
  ['sum(distinct t1.a)', false],
];

const groupShape: fc.Arbitrary<Shape> = fc
  .tuple(
    fc.subarray(['t1.a', 't1.s', 't1.b'], { minLength: 0, maxLength: 2 }),
    fc.subarray([...AGGREGATES], { minLength: 1, maxLength: 3 }),
    fc.option(predicate(T1_INT, ['t1.s'], 1), { nil: undefined }),
    fc.option(
      fc.tuple(
        fc.constantFrom('count(*) > 1', 'sum(t1.a) > 0', 'min(t1.a) is not null', 'max(t1.b) < 3'),
        fc.boolean(),
      ),
      {
        nil: undefined,
      },
    ),
    fc.boolean(),
  )
  .map(([keys, aggs, where, having, joined]) => {
    const cols = [...keys, ...aggs.map((a) => a[0])];
    const avgColumns = aggs.flatMap((a, k) => (a[1] ? [keys.length + k] : []));
    const from = joined ? 't1 left join t2 on t1.a = t2.a' : 't1';
    const group = keys.length > 0 ? ` group by ${keys.join(', ')}` : '';
    const hav = having !== undefined && keys.length > 0 ? ` having ${having[0]}` : '';
    return {
      sql: `select ${cols.join(', ')} from ${from}${where ? ` where ${where}` : ''}${group}${hav}`,
      width: cols.length,
      avgColumns,
    };
  });

const subqueryShape: fc.Arbitrary<Shape> = fc
  .tuple(
    selectList(T1_INT, ['t1.s']),
    subqueryPredicate,
    fc.option(predicate(T1_INT, ['t1.s'], 0), { nil: undefined }),
  )
  .map(([cols, sub, extra]) => ({
    sql: `select ${cols.join(', ')} from t1 where ${sub}${extra ? ` and ${extra}` : ''}`,
    width: cols.length,
    avgColumns: [],
  }));

const derivedShape: fc.Arbitrary<Shape> = fc
  .tuple(intExpr([...T1_INT, ...T2_INT], 1), predicate(['d.x'], [], 1))
  .map(([e, p]) => ({
    sql: `select d.x, count(*) from (select ${e} as x from t1 left join t2 on t1.a = t2.a) as d where ${p} group by d.x`,
    width: 2,
    avgColumns: [],
  }));

// UNION / UNION ALL / INTERSECT / EXCEPT of two one-column integer selects
const compoundShape: fc.Arbitrary<Shape> = fc
  .tuple(
    intExpr(T1_INT, 1),
    fc.option(predicate(T1_INT, ['t1.s'], 1), { nil: undefined }),
    fc.constantFrom('union', 'union all', 'intersect', 'except'),
    intExpr(T2_INT, 1),
    fc.option(predicate(T2_INT, ['t2.s'], 1), { nil: undefined }),
  )
  .map(([x, p, op, y, q]) => ({
    sql: `select ${x} as v from t1${p ? ` where ${p}` : ''} ${op} select ${y} from t2${q ? ` where ${q}` : ''}`,
    width: 1,
    avgColumns: [],
  }));

// LEFT JOIN with a condition on the inner table in ON (it filters matches, not outer rows),
// a self-join, and a correlated scalar subquery in the select list
const outerShape: fc.Arbitrary<Shape> = fc.oneof(
  fc
    .tuple(predicate(T2_INT, ['t2.s'], 1), fc.option(predicate(T1_INT, ['t1.s'], 0), { nil: undefined }))
    .map(([on, where]) => ({
      sql: `select t1.a, t2.c, t2.s from t1 left join t2 on t1.a = t2.a and ${on}${where ? ` where ${where}` : ''}`,
      width: 3,
      avgColumns: [],
    })),
  fc.constantFrom('x.a = y.a', 'x.a < y.a', 'x.s = y.s and x.b <> y.b').map((on) => ({
    sql: `select x.a, y.b from t1 as x join t1 as y on ${on}`,
    width: 2,
    avgColumns: [],
  })),
  fc
    .tuple(
      fc.constantFrom('max(t2.c)', 'count(*)', 'min(t2.s)', 'sum(t2.c)'),
      fc.constantFrom('t2.a = t1.a', 't2.c > t1.a'),
    )
    .map(([agg, corr]) => ({
      sql: `select t1.a, (select ${agg} from t2 where ${corr}) from t1`,
      width: 2,
      avgColumns: [],
    })),
  // a grouped derived table joined back to a base table
  fc
    .tuple(fc.constantFrom('count(*)', 'sum(t2.c)', 'max(t2.c)'), fc.constantFrom('join', 'left join'))
    .map(([agg, kind]) => ({
      sql: `select t1.a, t1.s, d.n from t1 ${kind} (select t2.a as k, ${agg} as n from t2 group by t2.a) as d on d.k = t1.a`,
      width: 3,
      avgColumns: [],
    })),
  fc.tuple(intExpr(['t1.a'], 1), predicate(T1_INT, ['t1.s'], 1)).map(([g, p]) => ({
    sql: `select ${g} as g, sum(case when ${p} then 1 else 0 end), count(*) from t1 group by g`,
    width: 3,
    avgColumns: [],
  })),
);

const shape: fc.Arbitrary<Shape> = fc.oneof(
  filterShape,
  joinShape,
  groupShape,
  subqueryShape,
  derivedShape,
  compoundShape,
  outerShape,
);

/** 0–8 rows mostly, sometimes up to 30 (many blocks in a 128-byte join buffer, more duplicates). */
const tableRows = <T>(row: fc.Arbitrary<T>): fc.Arbitrary<T[]> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.array(row, { maxLength: 8 }) },
    { weight: 1, arbitrary: fc.array(row, { maxLength: 30 }) },
  );

/**
 * A whole case: two small tables and one SELECT, ordered (maybe limited) or not. AVG only over
 * tables of at most 8 rows: a group of up to 64 rows has no quotient that ends in a decimal tie.
 */
export const fuzzCase: fc.Arbitrary<FuzzCase> = fc
  .tuple(
    tableRows(t1Row),
    tableRows(t2Row),
    shape.chain((s) => fc.tuple(fc.constant(s), fc.option(orderAll(s.width), { nil: undefined }))),
    fc.constantFrom(...SETTINGS),
  )
  .map(
    ([r1, r2, [s, order], settings]): FuzzCase => ({
      tables: [
        { name: 't1', rows: r1 },
        { name: 't2', rows: r2 },
      ],
      sql: s.sql + (order ?? ''),
      avgColumns: s.avgColumns,
      ordered: order !== undefined,
      settings,
    }),
  )
  .filter((c) => c.avgColumns.length === 0 || c.tables.every((t) => t.rows.length <= 8));

/** The statements that create and fill a case's tables (the same text for both engines). */
export function setupStatements(c: FuzzCase): string[] {
  const value = (v: number | bigint | string | null): string =>
    v === null ? 'NULL' : typeof v === 'string' ? `'${v}'` : String(v);
  const out = [
    'CREATE TABLE t1 (a INT, b BIGINT, s VARCHAR(8))',
    'CREATE TABLE t2 (a INT, c INT, s VARCHAR(8))',
  ];
  for (const t of c.tables) {
    if (t.rows.length > 0)
      out.push(
        `INSERT INTO ${t.name} VALUES ${t.rows.map((r) => `(${r.map(value).join(', ')})`).join(', ')}`,
      );
  }
  return out;
}
