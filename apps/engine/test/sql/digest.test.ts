import { tpchQuery } from '@enginekit/tpch';
import { describe, expect, test } from 'vitest';
import { digestOf } from '../../src/sql/digest.js';
import { operatorMode, parseSql, parseText, treesFromDigests } from '../../src/sql/parser.js';
import { wasmParses } from '../../src/sql/wasm-parser.js';
import { Database, Session } from '../../src/index.js';

/** Statement shapes with literal slots: `N` an integer, `D` a decimal, `E` a float, `S` a string. */
const SHAPES = [
  'SELECT c FROM sbtest1 WHERE id=N',
  'SELECT c FROM sbtest1 WHERE id BETWEEN N AND N ORDER BY c',
  'SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN N AND N ORDER BY c LIMIT N, N',
  "UPDATE sbtest1 SET c='S' WHERE id=N",
  'UPDATE sbtest1 SET k=k+N WHERE id=N',
  "INSERT INTO sbtest1 (id, k, c, pad) VALUES (N, N, 'S', 'S')",
  "INSERT INTO t VALUES (N, 'S', D), (N, 'S', E)",
  'DELETE FROM sbtest1 WHERE id=N',
  "REPLACE INTO t (a, b) VALUES (N, 'S')",
  "SELECT N + N * N - N DIV N, N MOD N, 'S' LIKE 'S', -N, NOT N, !N FROM t WHERE a IN (N, N, N) AND b = 'S'",
  "SELECT * FROM t WHERE d >= DATE 'S' AND d < DATE 'S' + INTERVAL N MONTH AND x = 'S' ESCAPE 'S'",
  "SELECT CAST(a AS DECIMAL(N, N)), CAST('S' AS CHAR(N)), a AS 'S', 'S' AS b FROM t",
  "SELECT a FROM t WHERE s = _utf8mb4'S' AND b = X'0A' AND c = 'S' COLLATE utf8mb4_bin",
  "SELECT a\n  FROM t\n WHERE b = 'S'   AND\n\tc = N /* note N */ AND e = E\nORDER BY N",
  'WITH x AS (SELECT N AS n) SELECT n + D FROM x WHERE n < N',
  'SELECT a, COUNT(*) FROM t GROUP BY a HAVING COUNT(*) > N ORDER BY 2 DESC LIMIT N',
  "SELECT 'it''s', 'S' FROM t WHERE a = 'S''S'",
  'SELECT N.N, D, E, .N FROM t',
  "SELECT a || 'S', b FROM t WHERE c = N || N",
  'SELECT * FROM t1 JOIN t2 ON t1.a = t2.b + N WHERE t1.c > D FOR UPDATE',
  'SELECT a FROM t WHERE a > N LOCK IN SHARE MODE',
  // many literals on each of several lines (positions move by binary search over them)
  `INSERT INTO t VALUES ${Array.from({ length: 6 }, () => Array.from({ length: 40 }, () => "(N, 'S', D)").join(', ')).join(',\n  ')}`,
];

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** One text of `shape` with random literals of each slot's kind and random lengths. */
function fill(shape: string, r: () => number): string {
  const int = () => String(Math.floor(r() * 10 ** (1 + Math.floor(r() * 7))));
  return shape.replace(/'S'|\bN\b|\bD\b|\bE\b/g, (m) => {
    if (m === 'N') return int();
    if (m === 'D') return `${int()}.${int()}`;
    if (m === 'E') return `${int()}e${r() < 0.5 ? '-' : ''}${1 + Math.floor(r() * 20)}`;
    const chars = 'abcXYZ 019-_%(),.;*';
    let s = '';
    const n = Math.floor(r() * 12);
    for (let i = 0; i < n; i++) s += chars[Math.floor(r() * chars.length)];
    return `'${s}'`;
  });
}

describe('statement digests', () => {
  test('a text built from its digest is the parser tree of that text, for every shape, mode and value', () => {
    const r = rng(20261202);
    const modes = [operatorMode(''), operatorMode('PIPES_AS_CONCAT'), operatorMode('HIGH_NOT_PRECEDENCE')];
    const before = treesFromDigests();
    let compared = 0;
    for (const mode of modes)
      for (const shape of SHAPES)
        for (let i = 0; i < 12; i++) {
          const sql = fill(shape, r);
          let direct: unknown;
          try {
            direct = parseText(sql, mode);
          } catch (e) {
            expect(() => parseSql(sql, mode)).toThrow((e as Error).message);
            continue;
          }
          expect(parseSql(sql, mode), sql).toEqual(direct);
          compared++;
        }
    expect(compared).toBeGreaterThan(500);
    // most shapes are served from their digest after their second text
    expect(treesFromDigests() - before).toBeGreaterThan(300);
  });

  test('the 22 TPC-H queries with qgen parameters of many seeds', () => {
    const before = treesFromDigests();
    for (let q = 1; q <= 22; q++)
      for (let seed = 1; seed <= 8; seed++)
        for (const sql of tpchQuery(q, { seed: seed * 7919 }).statements) {
          const direct = (() => {
            try {
              return parseText(sql);
            } catch (e) {
              return e as Error;
            }
          })();
          if (direct instanceof Error) expect(() => parseSql(sql)).toThrow(direct.message);
          else expect(parseSql(sql), `Q${q} seed ${seed}`).toEqual(direct);
        }
    // a DATE '…' literal is part of the shape, so queries with dates share a digest only when their dates do
    expect(treesFromDigests() - before).toBeGreaterThan(60);
  });

  test('a shape seen twice is not parsed again: new literals cost no parser call', () => {
    const shape = (i: number) => `SELECT c, pad FROM sbtest9 WHERE id = ${i} AND c <> 'v${i}'`;
    parseSql(shape(1));
    parseSql(shape(2));
    const calls = wasmParses();
    for (let i = 3; i < 203; i++) {
      const t = parseSql(shape(i)) as { Query: { body: { Select: { selection: unknown } } } }[];
      expect(JSON.stringify(t[0]!.Query.body.Select.selection)).toContain(`"v${i}"`);
    }
    expect(wasmParses() - calls).toBe(0);
  });

  test('what the digest leaves to the parser', () => {
    expect(digestOf('SELECT c FROM t WHERE id = ?')).toBeNull();
    expect(digestOf("SELECT 'a' 'b'")).toBeNull();
    expect(digestOf("SELECT 'a\\'b'")).toBeNull();
    expect(digestOf("SELECT 'é'")).toBeNull();
    expect(digestOf('SELECT 1 -- note')).toBeNull();
    expect(digestOf('SELECT 0x1F')).toBeNull();
    expect(digestOf('SELECT 1abc FROM t')).toBeNull();
    expect(digestOf('CREATE TABLE t (a CHAR(10))')).toBeNull();
    expect(digestOf('SELECT a FROM t')).toBeNull();
    const text = "SELECT x FROM t WHERE a = 12 AND b = 'o''k' AND c = DATE '2020-01-01' AND e = 1.5e3";
    const d = digestOf(text)!;
    expect(d.literals.map((l) => [l.kind, l.value, l.column, l.length])).toEqual([
      ['i', '12', 27, 2],
      ['s', "o'k", 38, 6],
      ['e', '1.5e3', text.indexOf('1.5e3') + 1, 5],
    ]);
    expect(d.padded.length).toBe(text.length);
    expect(d.key).toBe(
      "SELECT x FROM t WHERE a = \u0001i AND b = \u0001s AND c = DATE '2020-01-01' AND e = \u0001e",
    );
  });

  test('results and column names through a session are those of the text', () => {
    const db = Database.temporary();
    const s = new Session(db);
    s.query('CREATE TABLE t (id INT PRIMARY KEY, c VARCHAR(20), d DECIMAL(10,2))');
    for (let i = 0; i < 20; i++) s.query(`INSERT INTO t VALUES (${i}, 'row ${i}', ${i}.25)`);
    for (let i = 0; i < 20; i++) {
      const r = s.query(
        `SELECT c, d + 1.5, id * 100 + 7 FROM t WHERE id = ${i} AND c <> 'x${'y'.repeat(i)}'`,
      );
      expect(r.columns).toEqual(['c', 'd + 1.5', 'id * 100 + 7']);
      expect(r.rows).toEqual([[`row ${i}`, `${i + 1}.75`, i * 100 + 7]]);
    }
    db.close();
  });
});
