// How the worker host serializes a command against the other workers: the kind comes from the
// statement's parse (session/statement-kind.ts), a command's from its text or prepared text
// (server/statement-kind.ts).
import { describe, expect, it } from 'vitest';
import { commandKind } from '../../src/server/statement-kind.js';
import { statementKind } from '../../src/session/statement-kind.js';
import { DEFAULT_OPERATORS } from '../../src/sql/parser.js';
import { wasmParses } from '../../src/sql/wasm-parser.js';
import { temporarySession } from '../helpers/temporary.js';

const kind = (sql: string) => statementKind(sql, DEFAULT_OPERATORS);

describe('statement kinds', () => {
  it('DDL and row statements by their parse trees', () => {
    expect(kind('CREATE TABLE t (a INT PRIMARY KEY)')).toBe('ddl');
    expect(kind('  create index k_1 on sbtest1(k)')).toBe('ddl');
    expect(kind('/* sysbench */ DROP TABLE IF EXISTS sbtest1')).toBe('ddl');
    expect(kind('-- note\nALTER TABLE t ADD COLUMN b INT')).toBe('ddl');
    expect(kind('ANALYZE TABLE t')).toBe('ddl');
    expect(kind('CREATE VIEW v AS SELECT 1')).toBe('ddl');
    expect(kind('RENAME TABLE a TO b')).toBe('ddl');
    expect(kind('TRUNCATE TABLE t')).toBe('ddl');
    expect(kind('CREATE DATABASE d')).toBe('ddl');
    expect(kind('CREATE TABLE c AS SELECT 1 AS a')).toBe('ddl');
    expect(kind("CREATE USER 'u'@'%' IDENTIFIED BY 'p'")).toBe('ddl');
    expect(kind("GRANT SELECT ON d.* TO 'u'@'%'")).toBe('ddl');
    expect(kind("SET PASSWORD FOR 'u'@'%' = PASSWORD('x')")).toBe('ddl');
    expect(kind("SHOW GRANTS FOR 'u'@'%'")).toBe('rows');
    expect(kind('INSERT INTO t VALUES (1)')).toBe('rows');
    expect(kind('\tupdate t set a = 2')).toBe('rows');
    expect(kind('DELETE FROM t WHERE id = ?')).toBe('rows');
    expect(kind('REPLACE INTO t VALUES (1)')).toBe('rows');
    expect(kind('INSERT INTO t SELECT * FROM u')).toBe('rows');
    expect(kind('(SELECT 1) UNION (SELECT 2)')).toBe('rows');
    expect(kind('WITH a AS (SELECT 1) SELECT * FROM a')).toBe('rows');
    expect(kind('SELECT c FROM sbtest1 WHERE id = ?')).toBe('rows');
    expect(kind('SHOW STATUS')).toBe('rows');
    expect(kind('SHOW ENGINE INNODB STATUS')).toBe('rows');
    expect(kind('DESCRIBE t')).toBe('rows');
    expect(kind('SET autocommit = 1')).toBe('rows');
    expect(kind('BEGIN')).toBe('rows');
    expect(kind('KILL QUERY 3')).toBe('rows');
    expect(kind('FLUSH STATUS')).toBe('rows');
    // MariaDB's ANALYZE of a query runs the query (EXPLAIN ANALYZE): no DDL, where the first
    // keyword alone said so
    expect(kind('ANALYZE SELECT * FROM t')).toBe('rows');
    expect(kind('ANALYZE FORMAT=JSON SELECT 1')).toBe('rows');
    // a word in a comment is not the statement
    expect(kind('/* CREATE TABLE x */ SELECT 1')).toBe('rows');
    // a statement prepared in SQL may be of any kind; so may one the list does not know
    expect(kind('EXECUTE s USING @a')).toBe('ddl');
    // table locks are metadata locks of the shared lock table: no dictionary change
    expect(kind('LOCK TABLES t READ')).toBe('rows');
    expect(kind('LOCK TABLE db.t WRITE')).toBe('rows');
    expect(kind('UNLOCK TABLES')).toBe('rows');
    expect(kind("PREPARE s FROM 'INSERT INTO t VALUES (?)'")).toBe('rows');
    // no statement, or text that does not parse: the session answers it with its error
    expect(kind('')).toBe('rows');
    expect(kind('SELEC 1')).toBe('rows');
  });

  it('commands: queries by their text, executions by their prepared statement, the rest none', () => {
    const q = (sql: string) => Buffer.concat([Buffer.from([0x03]), Buffer.from(sql)]);
    const exec = (id: number) => {
      const b = Buffer.alloc(10);
      b[0] = 0x17;
      b.writeUInt32LE(id, 1);
      return b;
    };
    const texts = new Map([
      [1, 'UPDATE t SET a = ?'],
      [0x80000001, 'ALTER TABLE t ADD INDEX (a)'],
    ]);
    const prepared = (id: number): string | undefined => texts.get(id);
    const asked: string[] = [];
    const kindOf = (sql: string) => {
      asked.push(sql);
      return kind(sql);
    };
    expect(commandKind(q('INSERT INTO t VALUES (1)'), prepared, kindOf)).toBe('rows');
    expect(commandKind(q('select 1'), prepared, kindOf)).toBe('rows');
    expect(commandKind(q('DROP TABLE t'), prepared, kindOf)).toBe('ddl');
    expect(
      commandKind(Buffer.concat([Buffer.from([0x16]), Buffer.from('DELETE FROM t')]), prepared, kindOf),
    ).toBe('rows');
    expect(commandKind(exec(1), prepared, kindOf)).toBe('rows');
    expect(commandKind(exec(0x80000001), prepared, kindOf)).toBe('ddl');
    expect(commandKind(exec(7), prepared, kindOf)).toBe('rows'); // unknown: the processor answers 1243
    expect(commandKind(Buffer.from([0x17, 1]), prepared, kindOf)).toBe('rows'); // truncated: 1835 from the processor
    for (const c of [0x01, 0x0e, 0x19, 0x1a, 0x18, 0x02])
      expect(commandKind(Buffer.from([c, 0, 0, 0, 0]), prepared, kindOf)).toBe('none');
    // a prepare is not asked about (it changes nothing); an execution asks about its text
    expect(asked).toEqual([
      'INSERT INTO t VALUES (1)',
      'select 1',
      'DROP TABLE t',
      'UPDATE t SET a = ?',
      'ALTER TABLE t ADD INDEX (a)',
    ]);
  });
});

describe('one parse per statement', () => {
  it('a statement asked for its kind and then run is parsed once', () => {
    const s = temporarySession();
    s.query('CREATE TABLE t (id INT PRIMARY KEY, v INT)');
    // a shape and text this process has not seen
    const sql = `SELECT v + ${Date.now() % 100000} AS kind_once FROM t WHERE id > -7 AND v IS NULL`;
    const before = wasmParses();
    expect(s.statementKind(sql)).toBe('rows');
    expect(s.query(sql).rows).toEqual([]);
    expect(wasmParses() - before).toBe(1);
    const ddl = 'CREATE TABLE kind_once (a INT PRIMARY KEY)';
    const before2 = wasmParses();
    expect(s.statementKind(ddl)).toBe('ddl');
    s.query(ddl);
    expect(wasmParses() - before2).toBe(1);
  });
});
