// How the worker host serializes a command against the other workers (statement-kind.ts).
import { describe, expect, it } from 'vitest';
import { commandKind, sqlKind } from '../../src/server/statement-kind.js';

describe('statement kinds', () => {
  it('DDL and row statements by their first keyword, after comments, blanks and parentheses', () => {
    expect(sqlKind('CREATE TABLE t (a INT PRIMARY KEY)')).toBe('ddl');
    expect(sqlKind('  create index k_1 on sbtest1(k)')).toBe('ddl');
    expect(sqlKind('/* sysbench */ DROP TABLE IF EXISTS sbtest1')).toBe('ddl');
    expect(sqlKind('-- note\nALTER TABLE t ADD COLUMN b INT')).toBe('ddl');
    expect(sqlKind('ANALYZE TABLE t')).toBe('ddl');
    expect(sqlKind('INSERT INTO t VALUES (1)')).toBe('rows');
    expect(sqlKind('\tupdate t set a = 2')).toBe('rows');
    expect(sqlKind('DELETE FROM t WHERE id = ?')).toBe('rows');
    expect(sqlKind('REPLACE INTO t VALUES (1)')).toBe('rows');
    expect(sqlKind('(SELECT 1) UNION (SELECT 2)')).toBe('rows');
    expect(sqlKind('SELECT c FROM sbtest1 WHERE id = ?')).toBe('rows');
    expect(sqlKind('SHOW STATUS')).toBe('rows');
    expect(sqlKind('SET autocommit = 1')).toBe('rows');
    // a statement prepared in SQL may be of any kind
    expect(sqlKind('EXECUTE s USING @a')).toBe('ddl');
    expect(sqlKind("PREPARE s FROM 'INSERT INTO t VALUES (?)'")).toBe('rows');
    expect(sqlKind('')).toBe('rows');
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
    expect(commandKind(q('INSERT INTO t VALUES (1)'), prepared)).toBe('rows');
    expect(commandKind(q('select 1'), prepared)).toBe('rows');
    expect(commandKind(Buffer.concat([Buffer.from([0x16]), Buffer.from('DELETE FROM t')]), prepared)).toBe(
      'rows',
    );
    expect(commandKind(exec(1), prepared)).toBe('rows');
    expect(commandKind(exec(0x80000001), prepared)).toBe('ddl');
    expect(commandKind(exec(7), prepared)).toBe('rows'); // unknown: the processor answers 1243
    expect(commandKind(Buffer.from([0x17, 1]), prepared)).toBe('rows'); // truncated: 1835 from the processor
    for (const c of [0x01, 0x0e, 0x19, 0x1a, 0x18, 0x02])
      expect(commandKind(Buffer.from([c, 0, 0, 0, 0]), prepared)).toBe('none');
  });
});
