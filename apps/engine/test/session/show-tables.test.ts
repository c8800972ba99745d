// SHOW [FULL] TABLES and SHOW DATABASES with LIKE and WHERE. The statements of
// test/data/show-tables.cases.mjs run on the engine against MariaDB 10.11's answers recorded in
// test/data/show-tables.mariadb.json (the file names the command that recorded them: node
// apps/engine/test/data/record-mariadb.mjs show-tables --socket PATH): column names, values,
// errors with their numbers, warnings.
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { differences, engineAnswer, recordedAnswer } from '../helpers/mariadb-compare.js';
import { recordedSuite } from '../helpers/mariadb-recorded.js';

const suite = recordedSuite('show-tables');

const open: Database[] = [];
afterAll(() => {
  for (const db of open) if (!db.closed) db.close();
});

describe(`SHOW TABLES and SHOW DATABASES against MariaDB ${suite.server}`, () => {
  for (const script of suite.scripts) {
    it(script.name, () => {
      const db = Database.temporary();
      open.push(db);
      const s = new Session(db);
      const wrong: string[] = [];
      for (const st of script.statements) {
        const d = differences(recordedAnswer(st), engineAnswer(s, st.sql));
        if (d.length > 0) wrong.push(`${st.sql}\n    ${d.join('\n    ')}`);
      }
      expect(wrong, wrong.join('\n')).toEqual([]);
    });
  }
});

describe('SHOW … WHERE', () => {
  it('names an unknown column as MariaDB does, in WHERE', () => {
    const db = Database.temporary();
    open.push(db);
    const s = new Session(db);
    expect(() => s.query('SHOW TABLES WHERE Table_type = 1')).toThrow(
      "Unknown column 'Table_type' in 'WHERE'",
    );
    expect(() => s.query('SHOW DATABASES WHERE name = 1')).toThrow("Unknown column 'name' in 'WHERE'");
  });
});
