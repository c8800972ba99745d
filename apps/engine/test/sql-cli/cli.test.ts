// `enginekit sql` through the built binary (dist/cli.js: build first): -e with tables, \G, TSV and
// JSON, errors as the mysql client prints them with exit status 1, and the REPL over a pipe
// (statements across lines, an error that does not end the session). Also the splitter and the
// table formatter on their own.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatResult } from '../../src/sql-cli/format.js';
import { splitStatements } from '../../src/sql/split.js';

const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'engine-sql-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[], input?: string) => {
  const r = spawnSync(process.execPath, [cli, 'sql', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    input,
    env: { ...process.env, HOME: dir },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('enginekit sql', () => {
  it('-e runs statements, prints tables as the mysql client, stops at an error with status 1', () => {
    const db = join(dir, 'a.ekdb');
    const r = run([
      '--db',
      db,
      '--create',
      '-e',
      "CREATE TABLE t (a INT, b VARCHAR(5)); INSERT INTO t VALUES (1, 'x'), (22, NULL); SELECT * FROM t; SELECT * FROM nope; SELECT 1",
    ]);
    expect(r.stdout).toBe(
      [
        '+----+------+',
        '| a  | b    |',
        '+----+------+',
        '|  1 | x    |',
        '| 22 | NULL |',
        '+----+------+',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe("ERROR 1146 (42S02): Table 'test.nope' doesn't exist\n");
    expect(r.status).toBe(1);
    const j = run(['--db', db, '--format', 'json', '-e', 'SELECT a, b FROM t WHERE a > 5']);
    expect(JSON.parse(j.stdout)).toEqual([{ a: 22, b: null }]);
    expect(run(['--db', db, '--format', 'tsv', '-e', 'SELECT a FROM t']).stdout).toBe('a\n1\n22\n');
  });
  it('the REPL reads statements across lines and goes on after an error', () => {
    const db = join(dir, 'b.ekdb');
    const r = run(
      ['--db', db, '--create'],
      'CREATE TABLE t (a INT);\nINSERT INTO t\n VALUES (7);\nSELEC 1;\nSELECT a FROM t\\G\n',
    );
    expect(r.stdout).toContain('Query OK, 1 row affected');
    expect(r.stdout).toMatch(/\*+ 1\. row \*+\na: 7\n1 row in set \(\d+\.\d\d sec\)/);
    expect(r.stderr).toContain(
      "ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'SELEC 1' at line 1",
    );
    expect(r.status).toBe(0);
  });
});

describe('enginekit sql: which file it opens', () => {
  it('a path that does not exist is refused, naming it and --create; nothing is created', () => {
    const typo = join(dir, 'typo.ekdb');
    const r = run(['--db', typo, '-e', 'SELECT 1']);
    expect([r.status, r.stdout, r.stderr]).toEqual([
      1,
      '',
      `enginekit: sql: ${typo} does not exist; add --create to create a new database there\n`,
    ]);
    expect(readdirSync(dir).filter((f) => f.startsWith('typo'))).toEqual([]);
    // interactive too: refused before the prompt
    const i = run(['--db', typo], 'SELECT 1;\n');
    expect([i.status, i.stdout]).toEqual([1, '']);
  });
  it('--create makes a new database, and opens an existing one as it is', () => {
    const p = join(dir, 'made.ekdb');
    expect(
      run(['--db', p, '--create', '-e', 'CREATE TABLE t (a INT); INSERT INTO t VALUES (5)']).status,
    ).toBe(0);
    expect(run(['--db', p, '--create', '-e', 'SELECT a FROM t']).stdout).toContain('| 5 |');
    expect(run(['--db', p, '--format', 'tsv', '-e', 'SELECT a FROM t']).stdout).toBe('a\n5\n');
  });
  it('a directory, a missing directory, a file that is not a database: one line naming the path', () => {
    expect(run(['--db', dir, '-e', 'SELECT 1']).stderr).toBe(
      `enginekit: sql: ${dir} is a directory, not a database file\n`,
    );
    const deep = join(dir, 'no-such-dir', 'x.ekdb');
    expect(run(['--db', deep, '--create', '-e', 'SELECT 1']).stderr).toBe(
      `enginekit: sql: directory ${join(dir, 'no-such-dir')} does not exist (the directory of ${deep})\n`,
    );
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello, not a database\n');
    const r = run(['--db', text, '--create', '-e', 'SELECT 1']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^enginekit: sql: ${text} is not an enginekit database`));
    expect(readFileSync(text, 'utf8')).toBe('hello, not a database\n');
  });
});

describe('statement splitting and formatting', () => {
  it('splits at ; and \\G outside quotes and comments', () => {
    expect(
      splitStatements("SELECT ';'; SELECT 2\\G -- x;\nSELECT 3").map((s) => [s.sql, s.vertical]),
    ).toEqual([
      ["SELECT ';'", false],
      ['SELECT 2', true],
      ['-- x;\nSELECT 3', false],
    ]);
    expect(splitStatements('SELECT 1;\nSELECT', true).map((s) => s.complete)).toEqual([true, false]);
  });
  it('formats an empty set and an OK result', () => {
    expect(
      formatResult(
        { columns: ['a'], rows: [], affectedRows: 0, insertId: 0, warnings: 0 },
        'table',
        false,
        0.01,
      ),
    ).toBe('Empty set (0.01 sec)\n');
    expect(
      formatResult({ columns: [], rows: [], affectedRows: 2, insertId: 0, warnings: 1 }, 'table', false, 0),
    ).toBe('Query OK, 2 rows affected, 1 warning (0.00 sec)\n');
  });
});
