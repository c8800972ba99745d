// EXPLAIN, ANALYZE, the optimizer trace, hints and the optimizer's errors on small tables whose
// plans are worked out by hand from the cost formulas (docs/optimizer.md): a scan of one page
// costs 1 + rows × 0.2; a secondary ref costs 1 + rows seeks per lookup.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

let db: Database;
let s: Session;

beforeEach(() => {
  db = Database.temporary();
  s = new Session(db);
  s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT, v VARCHAR(10), KEY ik (k))');
  const rows: string[] = [];
  for (let i = 1; i <= 400; i++) rows.push(`(${i}, ${i % 40}, 'v${i}')`);
  s.query(`INSERT INTO t VALUES ${rows.join(',')}`);
  s.query('CREATE TABLE u (id INT PRIMARY KEY, tk INT)');
  s.query('INSERT INTO u VALUES (1, 5), (2, 6), (3, 39)');
});

afterEach(() => {
  s.close();
  db.close();
});

const line = (r: unknown[]): string => `${r[2]} ${r[3]} ${r[5] ?? '-'} ${r[7] ?? '-'} ${r[8]}`;

describe('EXPLAIN', () => {
  it("has MySQL's columns, and 'No tables used' without tables", () => {
    const r = s.query('EXPLAIN SELECT 1');
    expect(r.columns).toEqual([
      'id',
      'select_type',
      'table',
      'type',
      'possible_keys',
      'key',
      'key_len',
      'ref',
      'rows',
      'filtered',
      'Extra',
    ]);
    expect(r.rows).toEqual([[1, 'SIMPLE', null, null, null, null, null, null, null, null, 'No tables used']]);
  });

  it("says 'Impossible WHERE' for a block without tables whose WHERE is a literal false, as MariaDB", () => {
    // MariaDB 10.11: EXPLAIN SELECT 1 WHERE 0 → Extra 'Impossible WHERE'; WHERE 1 → 'No tables used'
    const extra = (sql: string): unknown => s.query(sql).rows[0]!.at(-1);
    expect(extra('EXPLAIN SELECT 1 WHERE 0')).toBe('Impossible WHERE');
    expect(extra('EXPLAIN SELECT 1 WHERE 1 = 0')).toBe('Impossible WHERE');
    expect(extra('EXPLAIN SELECT 1 WHERE 1')).toBe('No tables used');
    expect(String(extra('EXPLAIN FORMAT=JSON SELECT 1 WHERE 0'))).toContain('"message": "Impossible WHERE"');
  });

  it('a constant ref counts its rows in the index; the join follows with eq_ref/ref by key', () => {
    // k = 5: 10 of 400 rows, a dive counts them
    expect(s.query('EXPLAIN SELECT v FROM t WHERE k = 5').rows.map(line)).toEqual(['t ref ik const 10']);
    // u (3 rows) first, then t by ik: rec_per_key = floor(floor(400 / 40) / 2) = 5
    expect(s.query('EXPLAIN SELECT t.v FROM u, t WHERE t.k = u.tk').rows.map(line)).toEqual([
      'u ALL - - 3',
      't ref ik test.u.tk 5',
    ]);
    expect(s.query('EXPLAIN SELECT t.v FROM u, t WHERE t.id = u.tk').rows.map(line)).toEqual([
      'u ALL - - 3',
      't eq_ref PRIMARY test.u.tk 1',
    ]);
  });

  it('a range counted by a dive; DS-MRR shows as Rowid-ordered scan and counts Handler_mrr_init', () => {
    const q = 'SELECT v FROM t WHERE k BETWEEN 3 AND 4';
    expect(s.query(`EXPLAIN ${q}`).rows.map(line)).toEqual(['t range ik - 20']);
    const plain = s.query(q).rows;
    s.query("SET optimizer_switch = 'mrr=on,mrr_cost_based=off'");
    const e = s.query(`EXPLAIN ${q}`).rows[0]!;
    // the range's own condition is checked on the index entries (index_condition_pushdown=on)
    expect(e[10]).toBe('Using index condition; Rowid-ordered scan');
    s.query('FLUSH STATUS');
    const mrr = s.query(q).rows;
    expect([...mrr].sort()).toEqual([...plain].sort());
    const st = s.status();
    expect(st.Handler_mrr_init).toBe(1);
    expect(st.Handler_read_rnd).toBe(20);
    // the smallest buffer (8192 bytes) holds 2,048 row ids of ref_length 4 (an INT key): one fill
    s.query('SET mrr_buffer_size = 8192');
    s.query('FLUSH STATUS');
    s.query(q);
    expect(s.status().Handler_mrr_rowid_refills).toBe(0);
  });

  it('records_in_range counts up to its cap, then interpolates on the key', () => {
    s.query('CREATE TABLE big (id INT PRIMARY KEY, d DATE, KEY idd (d))');
    const rows: string[] = [];
    // 2,000 rows, one date per 2 rows from 2000-01-01 (the optimizer's cap is 5,000; 300 here)
    for (let i = 0; i < 2000; i++) rows.push(`(${i}, DATE '2000-01-01' + INTERVAL ${Math.floor(i / 2)} DAY)`);
    s.query(`INSERT INTO big VALUES ${rows.join(',')}`);
    const t = db.table('big');
    const day = (x: string): number => Date.parse(`${x}T00:00:00Z`) / 86_400_000;
    // exact below the cap: 100 days × 2
    expect(t.recordsInRange('idd', day('2000-06-01'), true, day('2000-09-09'), false, 300)).toBe(200);
    // 1,200 rows (600 days) counted to 300, the rest interpolated on the dates
    const est = t.recordsInRange('idd', day('2000-06-01'), true, day('2002-01-22'), false, 300);
    expect(Math.abs(est - 1200) / 1200).toBeLessThan(0.01);
    // open above: to the last entry (2000-06-01 is day 152: rows 304 …)
    const open = t.recordsInRange('idd', day('2000-06-01'), true, undefined, true, 300);
    expect(Math.abs(open - 1696) / 1696).toBeLessThan(0.01);
  });

  it('FORCE INDEX, IGNORE INDEX and STRAIGHT_JOIN are obeyed', () => {
    expect(s.query('EXPLAIN SELECT v FROM t IGNORE INDEX (ik) WHERE k = 5').rows.map(line)).toEqual([
      't ALL - - 400',
    ]);
    // k > 1: 380 rows, a range costs more than the scan unless forced
    expect(s.query('EXPLAIN SELECT v FROM t WHERE k > 1').rows.map(line)).toEqual(['t ALL - - 400']);
    expect(s.query('EXPLAIN SELECT v FROM t FORCE INDEX (ik) WHERE k > 1').rows.map(line)).toEqual([
      't range ik - 380',
    ]);
    expect(
      s.query('EXPLAIN SELECT t.v FROM t STRAIGHT_JOIN u WHERE t.k = u.tk').rows.map((r) => r[2]),
    ).toEqual(['t', 'u']);
  });

  it('join_cache_level picks BNL, BNLH, BKA or BKAH, each giving the nested loop rows', () => {
    // t.v is not in ik: the row is read (a covering read has its own test)
    const q = 'SELECT t.v, u.id FROM u, t WHERE t.k = u.tk ORDER BY 1, 2';
    const want = s.query(q).rows;
    const extras: string[] = [];
    for (let level = 0; level <= 8; level++) {
      s.query(`SET join_cache_level = ${level}`);
      s.query("SET optimizer_switch = 'mrr=on,mrr_sort_keys=on'");
      extras.push(String(s.query(`EXPLAIN ${q}`).rows[1]![10]));
      expect(s.query(q).rows, `level ${level}`).toEqual(want);
    }
    expect(extras).toEqual([
      'null',
      'null',
      'null',
      'Using where; Using join buffer (flat, BNLH join)',
      'Using where; Using join buffer (flat, BNLH join)',
      'Using join buffer (flat, BKA join); Key-ordered Rowid-ordered scan',
      'Using join buffer (flat, BKA join); Key-ordered Rowid-ordered scan',
      'Using join buffer (flat, BKAH join); Key-ordered Rowid-ordered scan',
      'Using join buffer (flat, BKAH join); Key-ordered Rowid-ordered scan',
    ]);
  });

  it('a join buffer that cannot get its minimum under join_buffer_space_limit is not used', () => {
    s.query('SET join_cache_level = 3');
    s.query('SET join_buffer_space_limit = 2048, join_buffer_size = 4096');
    const q = 'SELECT t.v FROM u, t WHERE t.k = u.tk';
    // optimize_join_buffer_size=on (the default): the buffer is sized for 3 records, within the limit
    const j = JSON.parse(String(s.query(`EXPLAIN FORMAT=JSON ${q}`).rows[0]![0]));
    expect(j.query_block.nested_loop[1].table.join_buffer_size).toBeLessThanOrEqual(2048);
    // off: the buffer asks for join_buffer_size (4096) > the limit, so none: a plain ref
    s.query("SET optimizer_switch = 'optimize_join_buffer_size=off'");
    const e = s.query(`EXPLAIN ${q}`).rows;
    expect(e[1]![3]).toBe('ref');
    expect(e[1]![10]).toBeNull();
  });

  it("the query cost is best_access_path's, worked out by hand", () => {
    const pages = db.table('t').primary.tree.stats().totalPages;
    const j = JSON.parse(
      String(s.query('EXPLAIN FORMAT=JSON SELECT t.v FROM u, t WHERE t.k = u.tk').rows[0]![0]),
    );
    // u: a one-page scan, 3 rows evaluated: 1 + 3 × 0.2
    const u = 1 + 3 * 0.2;
    // t by ik after 3 rows: rec_per_key 5; worst_seeks = max(2, min(400 / 10, 3 × pages));
    // a secondary read_time is 1 + rows seeks; 3 lookups; 15 rows evaluated
    const worst = Math.max(2, Math.min(40, 3 * pages));
    const t = 3 * (1 + Math.min(5, worst)) + 15 * 0.2;
    expect(Number(j.query_block.cost_info.query_cost)).toBeCloseTo(u + t, 2);
  });

  it('FORMAT=JSON gives cost_info; ANALYZE runs the query and adds r_rows and r_filtered', () => {
    const j = JSON.parse(
      String(s.query('EXPLAIN FORMAT=JSON SELECT t.v FROM u, t WHERE t.k = u.tk').rows[0]![0]),
    );
    const nl = j.query_block.nested_loop;
    expect(nl.map((x: { table: { table_name: string } }) => x.table.table_name)).toEqual(['u', 't']);
    expect(Number(j.query_block.cost_info.query_cost)).toBeCloseTo(
      Number(nl[1].table.cost_info.prefix_cost),
      2,
    );
    const a = s.query('ANALYZE SELECT t.v FROM u, t WHERE t.k = u.tk');
    expect(a.columns).toContain('r_rows');
    // u: 3 rows read once; t: 10 rows per k for two of the three keys, none for k = 39? (39 exists)
    expect(a.rows[0]![9]).toBe('3.00');
    expect(a.rows[1]![9]).toBe('10.00');
    const aj = JSON.parse(String(s.query('ANALYZE FORMAT=JSON SELECT v FROM t WHERE k = 5').rows[0]![0]));
    expect(aj.query_block.nested_loop[0].table.r_rows).toBe(10);
  });

  it("ANALYZE FORMAT=JSON times each table's own reads (r_total_time_ms), within the statement's", () => {
    s.query('SET join_cache_level = 0');
    const j = JSON.parse(
      String(
        s.query('ANALYZE FORMAT=JSON SELECT u.id, t.v FROM u, t IGNORE INDEX (ik) WHERE t.k = u.tk')
          .rows[0]![0],
      ),
    );
    const qb = j.query_block;
    const times = qb.nested_loop.map((x: { table: { r_total_time_ms: number } }) => x.table.r_total_time_ms);
    expect(times).toHaveLength(2);
    for (const x of times) expect(x).toBeGreaterThanOrEqual(0);
    // t is scanned once per row of u (no join buffer): its 1,200 rows are read in its own time
    expect(qb.nested_loop[1].table.r_loops).toBe(3);
    expect(times[1]).toBeGreaterThan(0);
    // the tables' times are parts of the statement's
    expect(times[0] + times[1]).toBeLessThanOrEqual(qb.r_total_time_ms + 0.001);
  });

  it('FORMAT=JSON names the pushed index condition and a covering read', () => {
    const icp = JSON.parse(String(s.query('EXPLAIN FORMAT=JSON SELECT v FROM t WHERE k >= 38').rows[0]![0]));
    expect(icp.query_block.nested_loop[0].table.index_condition).toBe('k >= 38');
    const cov = JSON.parse(String(s.query('EXPLAIN FORMAT=JSON SELECT id FROM t WHERE k = 3').rows[0]![0]));
    expect(cov.query_block.nested_loop[0].table.using_index).toBe(true);
  });

  it('the optimizer trace lists the access paths and join orders considered, with costs', () => {
    s.query("SET optimizer_trace = 'enabled=on'");
    s.query('SELECT t.v FROM u, t WHERE t.k = u.tk');
    const r = s.query('SELECT QUERY, TRACE FROM information_schema.OPTIMIZER_TRACE').rows;
    expect(r[0]![0]).toBe('SELECT t.v FROM u, t WHERE t.k = u.tk');
    const jo = JSON.parse(String(r[0]![1])).steps[0].join_optimization;
    expect(jo.considered_execution_plans.length).toBeGreaterThan(1);
    expect(jo.chosen_plan.order.map((x: { table: string }) => x.table)).toEqual(['u', 't']);
    // refine_plan: the pushed index condition, or the index read alone (the last statement's trace)
    const refined = ['SELECT v FROM t WHERE k >= 38', 'SELECT id FROM t WHERE k = 3'].map((q) => {
      s.query(q);
      const tr = s.query('SELECT TRACE FROM information_schema.OPTIMIZER_TRACE').rows[0]![0];
      return JSON.parse(String(tr)).steps[0].join_optimization.refine_plan[0];
    });
    expect(refined).toEqual([
      { table: 't', pushed_index_condition: 'k >= 38' },
      { table: 't', index_only: 'ik' },
    ]);
    s.query("SET optimizer_trace = 'enabled=off'");
  });
});

describe('bad input, with MySQL numbers and texts', () => {
  const fails = (sql: string, errno: number, sqlState: string, message: string | RegExp): void => {
    expect(() => s.query(sql)).toThrow(
      expect.objectContaining({
        errno,
        sqlState,
        message: typeof message === 'string' ? message : expect.stringMatching(message),
      }),
    );
  };
  it('EXPLAIN of a statement that does not parse: 1064 with the position', () => {
    fails('EXPLAIN SELECT * FROM t WHERE', 1064, '42000', /near '.*' at line 1$/);
  });
  it('an index hint naming a missing index: 1176', () => {
    fails(
      'EXPLAIN SELECT * FROM t FORCE INDEX (nope)',
      1176,
      '42000',
      "Key 'nope' doesn't exist in table 't'",
    );
    fails(
      'SELECT * FROM t USE INDEX (ik, nope) WHERE k = 1',
      1176,
      '42000',
      "Key 'nope' doesn't exist in table 't'",
    );
  });
  it('SET of an unknown variable: 1193; of a bad value: 1231', () => {
    fails('SET optimizer_nope = 1', 1193, 'HY000', "Unknown system variable 'optimizer_nope'");
    fails(
      "SET optimizer_switch = 'mrr=maybe'",
      1231,
      '42000',
      "Variable 'optimizer_switch' can't be set to the value of 'mrr=maybe'",
    );
    fails(
      "SET optimizer_trace = 'enabled=yes'",
      1231,
      '42000',
      "Variable 'optimizer_trace' can't be set to the value of 'enabled=yes'",
    );
  });
});
