// The two tables the read-order tests (ORDER BY and GROUP BY in index order, descending reads,
// MIN/MAX from index ends) share, as they were created on MariaDB 10.11 to record its plans and
// counters: `t` (400 rows, KEY ikm (k, m)) and `g` (8 rows with NULLs, collated duplicates and a
// negative zero, KEY isn (s, n), KEY id_ (d)).
import type { Session } from '../../src/index.js';

/** Creates and analyzes `t` and `g` in the session's database. */
export function createOrderTables(s: Session): void {
  s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT, m INT, v VARCHAR(10), KEY ikm (k, m))');
  const rows: string[] = [];
  for (let i = 1; i <= 400; i++) rows.push(`(${i}, ${i % 40}, ${i % 7}, 'v${i}')`);
  s.query(`INSERT INTO t VALUES ${rows.join(',')}`);
  s.query(
    'CREATE TABLE g (id INT PRIMARY KEY, s VARCHAR(10), n INT, d DECIMAL(8,2), KEY isn (s, n), KEY id_ (d))',
  );
  s.query(
    "INSERT INTO g VALUES (1,'a',1,1.50),(2,'A',2,NULL),(3,'b',NULL,2.00),(4,NULL,3,1.5),(5,'a ',4,-0.00)," +
      "(6,NULL,NULL,0),(7,'B',5,3.25),(8,'c',6,NULL)",
  );
  s.query('ANALYZE TABLE t, g');
}
