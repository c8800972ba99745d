// What a client learns about a result's columns, run against MariaDB 10.11 to record its column
// definition packets; test/server/result-metadata.test.ts sends the same statements to the
// engine's server through mysql2 and compares each column's type, length, character set, flags,
// decimals, schema, table, original table and original name. Each script starts in an empty
// database `test`, the current one; the connection's collation is utf8mb4_general_ci.

export const recordOrigins = true;
export const charset = 'UTF8MB4_GENERAL_CI';

const TABLE = `CREATE TABLE t (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  ti TINYINT,
  si SMALLINT UNSIGNED NOT NULL DEFAULT 0,
  mi MEDIUMINT,
  bi BIGINT UNSIGNED,
  d DECIMAL(10,2) NOT NULL,
  f FLOAT,
  db DOUBLE,
  c CHAR(5) NOT NULL,
  v VARCHAR(20),
  vb VARBINARY(8),
  bn BINARY(4),
  tx TEXT,
  bl BLOB,
  dt DATE,
  dtm DATETIME(3),
  ts TIMESTAMP NULL,
  tm TIME,
  y YEAR,
  u VARCHAR(10) UNIQUE,
  k INT NOT NULL,
  cb VARCHAR(8) COLLATE utf8mb4_bin,
  KEY (k),
  KEY (c, v)
)`;

export function scripts() {
  return [
    {
      name: 'ENUM, SET and JSON columns',
      statements: [
        "CREATE TABLE e (id INT PRIMARY KEY, s ENUM('small','Medium','large') NOT NULL, f SET('red','green','blue'), n ENUM('x','y') DEFAULT 'y')",
        "INSERT INTO e VALUES (1, 'large', 'red,blue', 'x')",
        'SELECT * FROM e',
        'SELECT s AS size, e.f, n FROM e WHERE id = 1',
        'CREATE TABLE j (id INT PRIMARY KEY, d JSON NOT NULL)',
        `INSERT INTO j VALUES (1, '{"a": 1}')`,
        'SELECT d FROM j',
      ],
    },
    {
      name: 'base-table columns',
      statements: [
        TABLE,
        "INSERT INTO t (ti, si, mi, bi, d, f, db, c, v, vb, bn, tx, bl, dt, dtm, ts, tm, y, u, k, cb) VALUES (1, 2, 3, 4, 5.25, 1.5, 2.5, 'ab', 'cd', 'ef', 'gh', 'ij', 'kl', '2024-01-02', '2024-01-02 03:04:05.678', '2024-01-02 03:04:05', '01:02:03', 2024, 'u1', 7, 'bin')",
        'SELECT * FROM t',
        'SELECT * FROM test.t',
        'SELECT id AS ident, v AS `value`, t.c FROM t',
        'SELECT x.id, x.k, x.u FROM t AS x',
        'SELECT t.id, x.id, x.c FROM t LEFT JOIN t AS x ON x.id = t.id + 1',
        'CREATE TABLE p (a INT, b INT NOT NULL, PRIMARY KEY (a, b), c INT NOT NULL, UNIQUE KEY (c))',
        'SELECT a, b, c FROM p',
        'CREATE TABLE n (a INT UNIQUE NOT NULL, b INT DEFAULT 5, c INT NOT NULL DEFAULT 1)',
        'SELECT a, b, c FROM n',
      ],
    },
    {
      name: 'literals, expressions and aggregates',
      statements: [
        TABLE,
        "INSERT INTO t (d, c, k) VALUES (1.5, 'x', 1)",
        "SELECT 1, -1, 12345678901, 'abc', '', 1.5, 1e3, NULL, X'78', DATE '2024-01-02'",
        'SELECT 1 AS one, 1 + 1, id + 1, k * 2, d + 1, d * 2, id / 2, -id FROM t',
        'SELECT id + 1 FROM t',
        "SELECT CONCAT(c, v), CONCAT('a', 'bc'), UPPER(c), LENGTH(c), SUBSTRING(v, 1, 2) FROM t",
        'SELECT COUNT(*), COUNT(v), SUM(id), SUM(d), AVG(id), MIN(id), MAX(v), MAX(c) FROM t',
        'SELECT c, COUNT(*) FROM t GROUP BY c',
        "SELECT CAST(id AS CHAR), CAST('5' AS SIGNED), CAST(d AS DECIMAL(6,1)) FROM t",
        'SELECT id = 1, id IS NULL, v LIKE "a%" FROM t',
        'SELECT IFNULL(v, c), COALESCE(ti, id), IF(id > 0, c, v) FROM t',
      ],
    },
    {
      name: 'derived tables, views and unions',
      statements: [
        TABLE,
        "INSERT INTO t (d, c, k) VALUES (1.5, 'x', 1)",
        'SELECT * FROM (SELECT id, c AS cc, k + 1 AS kk FROM t) AS dt',
        'CREATE VIEW vw AS SELECT id, c, k + 1 AS kk FROM t',
        'SELECT * FROM vw',
        'SELECT id FROM t UNION SELECT k FROM t',
        'SELECT id, c FROM t UNION ALL SELECT id, c FROM t',
        'WITH w AS (SELECT id, v FROM t) SELECT * FROM w',
        'SELECT id FROM t ORDER BY id LIMIT 1',
        'SELECT DISTINCT c FROM t',
      ],
    },
  ];
}
