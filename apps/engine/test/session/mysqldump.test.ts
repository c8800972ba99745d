// A dump written by MariaDB 10.11's mariadb-dump (`mariadb-dump --skip-dump-date dumpsrc >
// test/data/mysqldump.sql`: its header's SET statements in executable comments, each table's
// CREATE TABLE with comments, AUTO_INCREMENT and ON UPDATE, LOCK TABLES … WRITE and DISABLE /
// ENABLE KEYS around its rows, UNLOCK TABLES after them, a view created through a placeholder
// table) loads as one script, and the tables come back as MariaDB shows them: the SHOW CREATE
// TABLE texts and rows below are MariaDB's for the database the dump was taken from.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../src/index.js';
import { temporarySession } from '../helpers/temporary.js';

const dump = readFileSync(join(import.meta.dirname, '..', 'data', 'mysqldump.sql'), 'utf8');

let s: Session;

describe('a mariadb-dump script', () => {
  it('loads, and the tables, rows and view are the ones dumped', () => {
    s = temporarySession();
    s.query('CREATE DATABASE dumpsrc');
    s.query('USE dumpsrc');
    s.query(dump);
    const create = (table: string): string => String(s.query(`SHOW CREATE TABLE ${table}`).rows[0]![1]);
    expect(create('customer')).toBe(
      "CREATE TABLE `customer` (\n  `id` int(10) unsigned NOT NULL AUTO_INCREMENT,\n  `name` varchar(40) NOT NULL COMMENT 'display name',\n  `email` varchar(80) DEFAULT NULL,\n  `created` datetime NOT NULL DEFAULT current_timestamp(),\n  `updated` timestamp NULL DEFAULT NULL ON UPDATE current_timestamp(),\n  PRIMARY KEY (`id`),\n  UNIQUE KEY `uq_email` (`email`),\n  KEY `ix_name` (`name`)\n) ENGINE=InnoDB AUTO_INCREMENT=4 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci COMMENT='people who buy'",
    );
    expect(create('orders')).toBe(
      "CREATE TABLE `orders` (\n  `id` bigint(20) NOT NULL AUTO_INCREMENT,\n  `customer_id` int(10) unsigned NOT NULL,\n  `total` decimal(10,2) NOT NULL DEFAULT 0.00,\n  `status` enum('new','paid','shipped') NOT NULL DEFAULT 'new',\n  `note` text DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  KEY `ix_customer` (`customer_id`,`status`)\n) ENGINE=InnoDB AUTO_INCREMENT=1003 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci",
    );
    const text = (sql: string): string[][] =>
      s.query(sql).rows.map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));
    expect(text('SELECT id, name, email, created, updated FROM customer ORDER BY id')).toEqual([
      ['1', "Ann O'Neil", 'ann@example.com', '2024-01-02 03:04:05', 'NULL'],
      ['2', 'Bob', 'NULL', '2024-02-03 04:05:06', 'NULL'],
      ['3', 'Zoë \\ "q"', 'z@example.com', '2024-03-04 05:06:07', 'NULL'],
    ]);
    expect(text('SELECT * FROM orders ORDER BY id')).toEqual([
      ['1000', '1', '10.50', 'paid', 'first\nline'],
      ['1001', '1', '0.00', 'new', 'NULL'],
      ['1002', '3', '99999999.99', 'shipped', ''],
    ]);
    expect(text('SELECT * FROM paid')).toEqual([["Ann O'Neil", '10.50']]);
    // the dump's header restored what it changed
    expect(text('SELECT @@unique_checks, @@foreign_key_checks, @@sql_notes')).toEqual([['1', '1', '1']]);
    // the next row goes on from the dumped counter
    s.query('INSERT INTO orders (customer_id, total) VALUES (2, 1)');
    expect(text('SELECT MAX(id) FROM orders')).toEqual([['1003']]);
  });

  it('leaves the session out of locked-tables mode (the dump unlocks after each table)', () => {
    expect(s.query('SELECT COUNT(*) FROM paid').rows).toEqual([[1]]);
    expect(s.query("SHOW SESSION STATUS LIKE 'Com_%lock_tables'").rows).toEqual([
      ['Com_lock_tables', '2'],
      ['Com_unlock_tables', '2'],
    ]);
  });
});
