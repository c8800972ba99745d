// A MySQL tutorial's first hour (test/data/tutorial.sql: a database, tables with DATETIME and
// VARCHAR columns, inserts, case-insensitive lookups, joins, window functions, an ODKU upsert,
// DESCRIBE) against MariaDB 10.11.19's answers, recorded with the mariadb client on a private
// mariadbd: `mariadb -S SOCKET -uroot --batch < test/data/tutorial.sql > test/data/tutorial.mariadb.tsv`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

const script = readFileSync(new URL('../data/tutorial.sql', import.meta.url), 'utf8');
const recorded = readFileSync(new URL('../data/tutorial.mariadb.tsv', import.meta.url), 'utf8');

/** The mariadb client's --batch text of a value. */
const cell = (v: unknown): string => (v === null ? 'NULL' : v instanceof Date ? v.toISOString() : String(v));

describe('a tutorial script, as MariaDB answers it', () => {
  it('every statement runs and every result matches, but the differences named here', () => {
    const db = Database.temporary();
    const s = new Session(db);
    const out: string[] = [];
    for (const sql of script
      .split(/;\s*\n/)
      .map((x) => x.trim())
      .filter((x) => x !== '')) {
      const r = s.query(sql);
      if (r.columns.length === 0) continue;
      let rows = r.rows.map((row) => row.map(cell).join('\t'));
      // no ORDER BY: MariaDB returns the window query in its window order, which the script does not ask for
      if (/OVER \(/.test(sql)) rows = [...rows].sort();
      out.push(r.columns.join('\t'), ...rows);
    }
    const want = recorded
      .trimEnd()
      .split('\n')
      // the databases MariaDB has and the engine does not: performance_schema and sys, and the
      // recording server's own scratch database d
      .filter((l) => l !== 'performance_schema' && l !== 'sys' && l !== 'd');
    const start = want.indexOf('name\tamount\tr\trunning');
    want.splice(start + 1, 4, ...want.slice(start + 1, start + 5).sort());
    expect(out).toEqual(want);
    db.close();
  });
});
