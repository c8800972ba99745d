// Lock scenarios for two sessions, run against MariaDB 10.11 by record-gap-locks.mjs to record
// which statements wait; test/txn/gap-locks.test.ts runs them on the engine and compares. In
// each scenario session A runs `setup` (autocommit), then BEGIN and `holder`, and keeps its
// locks; session B then runs each probe in its own transaction (rolled back after it) with
// innodb_lock_wait_timeout = 1: a probe that fails with 1205 waited.

const TABLE = [
  'CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL, u INT, KEY kv (v), UNIQUE KEY ku (u))',
  'INSERT INTO t VALUES (5, 50, 5), (10, 100, 10), (20, 200, 20), (30, 300, 30)',
];

const INSERTS = [
  'INSERT INTO t VALUES (1, 1, NULL)',
  'INSERT INTO t VALUES (7, 70, NULL)',
  'INSERT INTO t VALUES (15, 150, NULL)',
  'INSERT INTO t VALUES (25, 250, NULL)',
  'INSERT INTO t VALUES (35, 350, NULL)',
];

const RECORDS = [
  'SELECT * FROM t WHERE id = 5 FOR UPDATE',
  'SELECT * FROM t WHERE id = 10 FOR UPDATE',
  'SELECT * FROM t WHERE id = 20 LOCK IN SHARE MODE',
  'SELECT * FROM t WHERE id = 30 FOR UPDATE',
];

export function scenarios() {
  return [
    {
      name: 'primary range BETWEEN FOR UPDATE',
      isolation: 'REPEATABLE-READ',
      setup: TABLE,
      holder: ['SELECT * FROM t WHERE id BETWEEN 10 AND 20 FOR UPDATE'],
      probes: [...INSERTS, ...RECORDS],
    },
    {
      name: 'primary range > FOR UPDATE to the end',
      isolation: 'REPEATABLE-READ',
      setup: TABLE,
      holder: ['SELECT * FROM t WHERE id > 25 FOR UPDATE'],
      probes: [...INSERTS, ...RECORDS],
    },
    {
      name: 'missing primary key FOR UPDATE',
      isolation: 'REPEATABLE-READ',
      setup: TABLE,
      holder: ['SELECT * FROM t WHERE id = 12 FOR UPDATE'],
      probes: [...INSERTS, ...RECORDS, 'SELECT * FROM t WHERE id = 13 FOR UPDATE'],
    },
    {
      name: 'existing primary key FOR UPDATE',
      isolation: 'REPEATABLE-READ',
      setup: TABLE,
      holder: ['SELECT * FROM t WHERE id = 20 FOR UPDATE'],
      probes: [...INSERTS, ...RECORDS],
    },
    {
      name: 'secondary range FOR UPDATE',
      isolation: 'REPEATABLE-READ',
      setup: TABLE,
      holder: ['SELECT * FROM t FORCE INDEX (kv) WHERE v BETWEEN 100 AND 200 FOR UPDATE'],
      probes: [...INSERTS, ...RECORDS],
    },
    {
      name: 'secondary equality LOCK IN SHARE MODE',
      isolation: 'REPEATABLE-READ',
      setup: TABLE,
      holder: ['SELECT * FROM t FORCE INDEX (kv) WHERE v = 200 LOCK IN SHARE MODE'],
      probes: [...INSERTS, ...RECORDS],
    },
    {
      name: 'unique secondary key FOR UPDATE',
      isolation: 'REPEATABLE-READ',
      setup: TABLE,
      holder: ['SELECT * FROM t WHERE u = 20 FOR UPDATE'],
      probes: [
        ...INSERTS,
        ...RECORDS,
        'INSERT INTO t VALUES (16, 160, 16)',
        'INSERT INTO t VALUES (26, 260, 26)',
      ],
    },
    {
      name: 'UPDATE of a range',
      isolation: 'REPEATABLE-READ',
      setup: TABLE,
      holder: ['UPDATE t SET v = v + 1 WHERE id BETWEEN 10 AND 20'],
      probes: [...INSERTS, ...RECORDS],
    },
    {
      name: 'DELETE of a missing key',
      isolation: 'REPEATABLE-READ',
      setup: TABLE,
      holder: ['DELETE FROM t WHERE id = 22'],
      probes: [...INSERTS, ...RECORDS],
    },
    {
      name: 'an uncommitted insert',
      isolation: 'REPEATABLE-READ',
      setup: TABLE,
      holder: ['INSERT INTO t VALUES (15, 150, 15)'],
      probes: [
        ...INSERTS,
        ...RECORDS,
        'SELECT * FROM t WHERE id = 15 FOR UPDATE',
        'INSERT INTO t VALUES (16, 160, 15)',
        'INSERT INTO t VALUES (12, 120, 12)',
      ],
    },
    {
      name: 'primary range BETWEEN FOR UPDATE, READ COMMITTED',
      isolation: 'READ-COMMITTED',
      setup: TABLE,
      holder: ['SELECT * FROM t WHERE id BETWEEN 10 AND 20 FOR UPDATE'],
      probes: [...INSERTS, ...RECORDS],
    },
    {
      name: 'secondary range FOR UPDATE, READ COMMITTED',
      isolation: 'READ-COMMITTED',
      setup: TABLE,
      holder: ['SELECT * FROM t FORCE INDEX (kv) WHERE v BETWEEN 100 AND 200 FOR UPDATE'],
      probes: [...INSERTS, ...RECORDS],
    },
    {
      name: 'UPDATE of rows a scan rejects, READ COMMITTED',
      isolation: 'READ-COMMITTED',
      setup: TABLE,
      holder: ['UPDATE t SET u = u + 1 WHERE v + 0 = 200'],
      probes: [...INSERTS, ...RECORDS],
    },
    {
      name: 'UPDATE of rows a scan rejects, REPEATABLE READ',
      isolation: 'REPEATABLE-READ',
      setup: TABLE,
      holder: ['UPDATE t SET u = u + 1 WHERE v + 0 = 200'],
      probes: [...RECORDS],
    },
    {
      name: 'DELETE of rows a scan rejects, READ COMMITTED',
      isolation: 'READ-COMMITTED',
      setup: TABLE,
      holder: ['DELETE FROM t WHERE v + 0 = 200'],
      probes: [...RECORDS],
    },
    {
      name: 'FOR UPDATE of rows a scan rejects, READ COMMITTED',
      isolation: 'READ-COMMITTED',
      setup: TABLE,
      holder: ['SELECT * FROM t WHERE v + 0 = 200 FOR UPDATE'],
      probes: [...RECORDS],
    },
    {
      name: 'a secondary-index UPDATE releases the entry and the row it rejects, READ COMMITTED',
      isolation: 'READ-COMMITTED',
      setup: TABLE,
      holder: ['UPDATE t FORCE INDEX (kv) SET u = u + 100 WHERE v BETWEEN 100 AND 200 AND u + 0 = 20'],
      probes: [
        ...RECORDS,
        'SELECT * FROM t FORCE INDEX (kv) WHERE v = 100 FOR UPDATE',
        'SELECT * FROM t FORCE INDEX (kv) WHERE v = 200 FOR UPDATE',
      ],
    },
    {
      name: 'a rejecting scan releases a lock taken earlier in the transaction, READ COMMITTED',
      isolation: 'READ-COMMITTED',
      setup: TABLE,
      holder: ['SELECT * FROM t WHERE id = 10 FOR UPDATE', 'SELECT * FROM t WHERE v + 0 = 200 FOR UPDATE'],
      probes: [...RECORDS],
    },
    {
      name: 'a rejecting scan keeps the lock of a row the transaction changed, READ COMMITTED',
      isolation: 'READ-COMMITTED',
      setup: TABLE,
      holder: ['UPDATE t SET u = 11 WHERE id = 10', 'SELECT * FROM t WHERE v + 0 = 200 FOR UPDATE'],
      probes: [...RECORDS],
    },
    {
      name: 'semi-consistent UPDATE past a locked row, READ COMMITTED',
      isolation: 'READ-COMMITTED',
      setup: TABLE,
      holder: ['SELECT * FROM t WHERE id = 20 FOR UPDATE'],
      probes: [
        'UPDATE t SET u = u + 1 WHERE v + 0 = 100',
        'UPDATE t SET u = u + 1 WHERE v + 0 = 200',
        'UPDATE t SET u = u + 1 WHERE id BETWEEN 5 AND 30 AND v + 0 = 300',
        'UPDATE t SET u = u + 1 WHERE id = 20 AND v + 0 = 1',
        'UPDATE t FORCE INDEX (kv) SET u = u + 1 WHERE v BETWEEN 100 AND 300 AND u + 0 = 10',
        'DELETE FROM t WHERE v + 0 = 100',
        'SELECT * FROM t WHERE v + 0 = 100 FOR UPDATE',
      ],
    },
    {
      name: 'semi-consistent UPDATE judges the committed version, READ COMMITTED',
      isolation: 'READ-COMMITTED',
      setup: TABLE,
      holder: ['UPDATE t SET v = 999 WHERE id = 20'],
      probes: ['UPDATE t SET u = u + 1 WHERE v + 0 = 999', 'UPDATE t SET u = u + 1 WHERE v + 0 = 200'],
    },
    {
      name: 'semi-consistent UPDATE passes an uncommitted insert, READ COMMITTED',
      isolation: 'READ-COMMITTED',
      setup: TABLE,
      holder: ['INSERT INTO t VALUES (15, 150, 15)'],
      probes: [
        'UPDATE t SET u = u + 1 WHERE v + 0 = 150',
        'UPDATE t SET u = u + 1 WHERE v + 0 = 100',
        'DELETE FROM t WHERE v + 0 = 100',
      ],
    },
    {
      name: 'UPDATE … LIMIT 1 stops after its row, READ COMMITTED',
      isolation: 'READ-COMMITTED',
      setup: TABLE,
      holder: ['UPDATE t SET u = u + 1 WHERE v + 0 >= 100 LIMIT 1'],
      probes: [...RECORDS],
    },
    {
      name: 'LOCK IN SHARE MODE of rows a scan rejects, READ COMMITTED',
      isolation: 'READ-COMMITTED',
      setup: TABLE,
      holder: ['SELECT * FROM t WHERE v + 0 = 200 LOCK IN SHARE MODE'],
      probes: [
        ...RECORDS,
        'SELECT * FROM t WHERE id = 20 FOR UPDATE',
        'SELECT * FROM t WHERE id = 10 FOR UPDATE',
      ],
    },
    {
      name: 'semi-consistent UPDATE past a row being deleted, READ COMMITTED',
      isolation: 'READ-COMMITTED',
      setup: TABLE,
      holder: ['DELETE FROM t WHERE id = 20'],
      probes: ['UPDATE t SET u = u + 1 WHERE v + 0 = 100', 'UPDATE t SET u = u + 1 WHERE v + 0 = 200'],
    },
    {
      name: 'no semi-consistent read under REPEATABLE READ',
      isolation: 'REPEATABLE-READ',
      setup: TABLE,
      holder: ['SELECT * FROM t WHERE id = 20 FOR UPDATE'],
      probes: ['UPDATE t SET u = u + 1 WHERE v + 0 = 100'],
    },
  ];
}
