// The scaled-integer fast path of DECIMAL and BIGINT expressions (src/exec/scaled.ts) against
// the exact bigint path as the oracle, twice over: answers computed here with BigInt arithmetic,
// and the same query over a derived table, whose columns reach the outer query as bigints and so
// take the exact path throughout. The values sit where the fast path must step aside: scaled
// integers around ±2^53 units, products that cross 2^53, sums that cross it many times.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

const dbs: Database[] = [];
afterEach(() => {
  for (const d of dbs.splice(0)) d.close();
});
function fresh() {
  const db = Database.temporary();
  dbs.push(db);
  const s = new Session(db);
  s.query('CREATE TABLE t (id INT PRIMARY KEY, g INT NOT NULL, a DECIMAL(30,2), b DECIMAL(30,2), i BIGINT)');
  return s;
}

const P53 = 2n ** 53n;

/** A scaled integer at `scale` as DECIMAL text ('-12.05'). */
function dec(v: bigint, scale: number): string {
  const neg = v < 0n;
  const s = (neg ? -v : v).toString().padStart(scale + 1, '0');
  const t = scale === 0 ? s : `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}`;
  return neg ? `-${t}` : t;
}
const lit = (v: bigint | null, scale = 2): string => (v === null ? 'NULL' : dec(v, scale));

type Row = { id: number; g: number; a: bigint | null; b: bigint | null; i: bigint | null };

function load(s: ReturnType<typeof fresh>, rows: readonly Row[]): void {
  for (let k = 0; k < rows.length; k += 500) {
    const part = rows.slice(k, k + 500);
    s.query(
      `INSERT INTO t VALUES ${part.map((r) => `(${r.id}, ${r.g}, ${lit(r.a)}, ${lit(r.b)}, ${lit(r.i, 0)})`).join(', ')}`,
    );
  }
}

/** Every row of a result as text, for comparing two answers. */
const texts = (rows: unknown[][]): string[][] =>
  rows.map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));

/** The query over t, and the same over a derived copy of t (the exact path). */
function bothWays(s: ReturnType<typeof fresh>, query: string): [string[][], string[][]] {
  const fast = texts(s.query(query.replaceAll('{t}', 't')).rows);
  const exact = texts(s.query(query.replaceAll('{t}', '(SELECT id, g, a, b, i FROM t) t')).rows);
  return [fast, exact];
}

// scaled integers where the fast path's edges are: around ±2^53 units, around 2^26.5 (products
// near 2^53), far beyond (stored wide), small
const units = fc.oneof(
  fc.bigInt({ min: P53 - 3000n, max: P53 + 3000n }),
  fc.bigInt({ min: -P53 - 3000n, max: -P53 + 3000n }),
  fc.bigInt({ min: 94_000_000n, max: 96_000_000n }),
  fc.bigInt({ min: -(10n ** 27n), max: 10n ** 27n }),
  fc.bigInt({ min: -1000n, max: 1000n }),
);
// BIGINT values: the same edges, within its signed 64-bit range
const ints = fc.oneof(
  fc.bigInt({ min: P53 - 3000n, max: P53 + 3000n }),
  fc.bigInt({ min: -P53 - 3000n, max: -P53 + 3000n }),
  fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n }),
  fc.bigInt({ min: -1000n, max: 1000n }),
);
const rowsArb = fc
  .array(
    fc.tuple(fc.option(units, { freq: 6 }), fc.option(units, { freq: 6 }), fc.option(ints, { freq: 6 })),
    {
      minLength: 1,
      maxLength: 40,
    },
  )
  .map((xs) => xs.map(([a, b, i], k): Row => ({ id: k, g: k % 3, a, b, i })));

describe('DECIMAL and BIGINT fast path', () => {
  it('adds, subtracts, multiplies and negates exactly across 2^53 units', () => {
    const s = fresh();
    // 2^53 − 1 units, one more, and a product one past what a double holds exactly
    load(s, [
      { id: 1, g: 0, a: P53 - 1n, b: 1n, i: P53 - 1n },
      { id: 2, g: 0, a: 94_906_267n, b: 94_906_267n, i: 2n },
      { id: 3, g: 0, a: -(P53 - 1n), b: -2n, i: -(P53 - 1n) },
    ]);
    const r = s.query('SELECT a + b, a - b, a * b, -a, i + i, i * 3 FROM t ORDER BY id').rows;
    expect(texts(r)).toEqual([
      [
        '90071992547409.92',
        '90071992547409.90',
        '900719925474.0991',
        '-90071992547409.91',
        '18014398509481982',
        '27021597764222973',
      ],
      ['1898125.34', '0.00', '900719951587.5289', '-949062.67', '4', '6'],
      [
        '-90071992547409.93',
        '-90071992547409.89',
        '1801439850948.1982',
        '90071992547409.91',
        '-18014398509481982',
        '-27021597764222973',
      ],
    ]);
  });

  it('compares exactly where one side is past a safe integer', () => {
    const s = fresh();
    load(s, [
      { id: 1, g: 0, a: P53 - 1n, b: P53 + 1n, i: P53 + 1n },
      { id: 2, g: 0, a: P53 + 1n, b: P53, i: P53 },
      { id: 3, g: 0, a: 5n, b: 5n, i: 1n },
    ]);
    const ids = (w: string) => s.query(`SELECT id FROM t WHERE ${w} ORDER BY id`).rows.map((x) => x[0]);
    expect(ids('a < b')).toEqual([1]);
    expect(ids('a > b')).toEqual([2]);
    expect(ids('a = b')).toEqual([3]);
    expect(ids('a > 90071992547409.92')).toEqual([2]); // the literal is 2^53 units
    expect(ids('a >= 90071992547409.91')).toEqual([1, 2]);
    expect(ids('i = 9007199254740993')).toEqual([1]);
    expect(ids('i > 9007199254740992')).toEqual([1]);
    // an INT scaled to the DECIMAL's scale leaves the safe range (2^53 · 100)
    expect(ids('a * 100 > i')).toEqual([2, 3]);
    expect(ids('b BETWEEN 0.05 AND 90071992547409.92')).toEqual([2, 3]);
  });

  it('SUM widens to the exact bigint when the double would leave the safe range', () => {
    const s = fresh();
    load(s, [
      { id: 1, g: 0, a: P53 - 1n, b: null, i: P53 - 1n },
      { id: 2, g: 0, a: P53 - 1n, b: null, i: P53 - 1n },
      { id: 3, g: 0, a: P53 - 1n, b: 7n, i: P53 - 1n },
      { id: 4, g: 1, a: 1n, b: null, i: 1n },
    ]);
    expect(texts(s.query('SELECT SUM(a), SUM(i), COUNT(b), AVG(a) FROM t').rows)).toEqual([
      ['270215977642229.74', '27021597764222974', '1', '67553994410557.435000'],
    ]);
    expect(texts(s.query('SELECT g, SUM(a), SUM(a * 2) FROM t GROUP BY g ORDER BY g').rows)).toEqual([
      ['0', '270215977642229.73', '540431955284459.46'],
      ['1', '0.01', '0.02'],
    ]);
  });

  it('a long SUM that crosses 2^53 many times equals the BigInt sum', () => {
    const s = fresh();
    const rows: Row[] = [];
    let x = 12345n;
    let sum = 0n;
    let sumSq = 0n;
    for (let k = 0; k < 3000; k++) {
      x = (x * 6364136223846793005n + 1442695040888963407n) % 2n ** 61n;
      const a = (x % 2n ** 52n) - (k % 7 === 0 ? 2n ** 51n : 0n); // mostly positive, ~2^51 units
      const b = (x >> 30n) % 100_000_000n;
      rows.push({ id: k, g: k % 5, a, b, i: a });
      sum += a;
      sumSq += b * b;
    }
    load(s, rows);
    const r = s.query('SELECT SUM(a), SUM(b * b), SUM(i), COUNT(*) FROM t').rows;
    expect(texts(r)).toEqual([[dec(sum, 2), dec(sumSq, 4), dec(sum, 0), '3000']]);
    expect(sum > 100n * P53).toBe(true);
    const [fast, exact] = bothWays(
      s,
      'SELECT g, SUM(a), AVG(a), SUM(a * b), AVG(b) FROM {t} GROUP BY g ORDER BY g',
    );
    expect(fast).toEqual(exact);
  });

  it('random values near the edges: the same rows as BigInt arithmetic and the exact path', () => {
    fc.assert(
      fc.property(rowsArb, fc.option(units, { freq: 4 }), (rows, k) => {
        const s = fresh();
        load(s, rows);
        const arith = texts(s.query('SELECT a + b, a - b, a * b, -a, a + i, i - i FROM t ORDER BY id').rows);
        const want = rows.map((r) => {
          const a = r.a;
          const b = r.b;
          const i = r.i;
          return [
            a === null || b === null ? 'NULL' : dec(a + b, 2),
            a === null || b === null ? 'NULL' : dec(a - b, 2),
            a === null || b === null ? 'NULL' : dec(a * b, 4),
            a === null ? 'NULL' : dec(-a, 2),
            a === null || i === null ? 'NULL' : dec(a + i * 100n, 2),
            i === null ? 'NULL' : '0',
          ];
        });
        expect(arith).toEqual(want);
        const present = rows.filter((r) => r.a !== null);
        const sum = present.reduce((acc, r) => acc + r.a!, 0n);
        const sums = texts(s.query('SELECT SUM(a), COUNT(a), COUNT(*) FROM t').rows);
        expect(sums).toEqual([
          [present.length === 0 ? 'NULL' : dec(sum, 2), String(present.length), String(rows.length)],
        ]);
        const kk = lit(k);
        for (const q of [
          'SELECT SUM(a), SUM(b), AVG(a), SUM(a * b), SUM(a + b), SUM(i), AVG(i), COUNT(a) FROM {t}',
          'SELECT g, SUM(a - b), MIN(a), MAX(b), SUM(-a) FROM {t} GROUP BY g ORDER BY g',
          'SELECT id FROM {t} WHERE a < b ORDER BY id',
          'SELECT id FROM {t} WHERE a >= b ORDER BY id',
          'SELECT id FROM {t} WHERE a = b OR a <> i ORDER BY id',
          `SELECT id FROM {t} WHERE a > ${kk} ORDER BY id`,
          `SELECT id FROM {t} WHERE a * b <= ${kk} ORDER BY id`,
          `SELECT id FROM {t} WHERE a + b BETWEEN ${kk} AND 90071992547409.92 ORDER BY id`,
          'SELECT id, a * b - a FROM {t} WHERE NOT (a - b > 0) ORDER BY id',
        ]) {
          const [fast, exact] = bothWays(s, q);
          expect(fast, q).toEqual(exact);
        }
        for (const d of dbs.splice(0)) d.close();
      }),
      { numRuns: 60, seed: 20261201 },
    );
  });
});

describe('generated code and constants', () => {
  it('a statement with other constants reuses its compiled code', async () => {
    const { generatedTexts } = await import('../../src/internal/generated-code.js');
    const s = fresh();
    load(s, [
      { id: 1, g: 1, a: 150n, b: 20n, i: 7n },
      { id: 2, g: 1, a: -5n, b: 900n, i: 8n },
      { id: 3, g: 2, a: 70n, b: 70n, i: 9n },
    ]);
    const shapes = (k: number): string[] => [
      `SELECT id FROM t WHERE i = ${k}`,
      `SELECT id FROM t WHERE g * ${k} > i + ${k + 1} ORDER BY id`,
      `SELECT g, SUM(i + ${k}) FROM t GROUP BY g ORDER BY g`,
    ];
    const answer = (k: number) => shapes(k).map((q) => s.query(q).rows);
    answer(1);
    const compiled = generatedTexts();
    for (let k = 2; k < 40; k++) {
      const got = answer(k);
      expect(got[0]).toEqual(k >= 7 && k <= 9 ? [[k - 6]] : []);
    }
    expect(generatedTexts()).toBe(compiled);
  });
});
