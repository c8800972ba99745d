// SHOW [FULL] TABLES and SHOW DATABASES with LIKE and WHERE, run against MariaDB 10.11 to record
// its answers; test/session/show-tables.test.ts runs the same scripts on the engine and compares. Each
// script starts in an empty database `test`, the current one. Database names start with `db_` so
// that a pattern never meets MariaDB's own schemas (sys, performance_schema).

export function scripts() {
  return [
    {
      name: 'SHOW [FULL] TABLES with LIKE and WHERE',
      statements: [
        'CREATE TABLE t1 (a INT)',
        'CREATE TABLE t2 (a INT)',
        'CREATE TABLE other (a INT)',
        'CREATE VIEW v1 AS SELECT a FROM t1',
        'SHOW TABLES',
        'SHOW FULL TABLES',
        "SHOW TABLES LIKE 't%'",
        "SHOW FULL TABLES LIKE '%1'",
        "SHOW TABLES WHERE Tables_in_test LIKE 't%'",
        "SHOW FULL TABLES WHERE Table_type = 'VIEW'",
        "SHOW FULL TABLES WHERE Table_type = 'BASE TABLE' AND Tables_in_test <> 'other'",
        "SHOW FULL TABLES WHERE tables_in_test IN ('t2', 'v1') OR table_type LIKE 'x%'",
        'SHOW TABLES WHERE no_such = 1',
        "SHOW TABLES WHERE Table_type = 'VIEW'",
        'SHOW TABLES FROM db_none',
        'CREATE DATABASE db_x',
        'CREATE TABLE db_x.t3 (a INT)',
        'CREATE VIEW db_x.v3 AS SELECT 1 AS one',
        'SHOW FULL TABLES FROM db_x',
        "SHOW TABLES IN db_x LIKE 't_'",
        "SHOW FULL TABLES IN db_x WHERE Tables_in_db_x = 'v3'",
        "SHOW FULL TABLES FROM information_schema LIKE 'SCHEMATA'",
        "SHOW FULL TABLES FROM information_schema WHERE Tables_in_information_schema = 'TABLES'",
        "SHOW FULL TABLES FROM mysql LIKE 'innodb_table_stats'",
        'USE db_x',
        'SHOW FULL TABLES',
        "SHOW TABLES WHERE Tables_in_db_x LIKE 'v%'",
      ],
    },
    {
      name: 'SHOW DATABASES with LIKE and WHERE',
      statements: [
        'CREATE DATABASE db_a',
        'CREATE DATABASE db_b',
        'CREATE DATABASE db_ab',
        "SHOW DATABASES LIKE 'db\\_%'",
        "SHOW SCHEMAS LIKE 'db_a%'",
        "SHOW DATABASES LIKE 'test'",
        "SHOW DATABASES WHERE `Database` LIKE 'db\\_%'",
        "SHOW DATABASES WHERE `Database` = 'db_b' OR `Database` = 'test'",
        "SHOW DATABASES WHERE `database` IN ('db_a', 'db_ab')",
        "SHOW DATABASES WHERE LENGTH(`Database`) = 5 AND `Database` LIKE 'db%'",
        'SHOW DATABASES WHERE no_such = 1',
      ],
    },
  ];
}
