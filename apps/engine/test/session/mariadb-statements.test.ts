// The statements of test/data/statements.cases.mjs on the engine, against MariaDB 10.11's answers
// recorded in test/data/statements.mariadb.json (the file names the command that recorded them):
// column names, type classes, values, errors, warnings and affected rows. Every difference is
// either fixed or listed in KNOWN with its reason (docs/sql.md lists them too).
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { differences, engineAnswer, recordedAnswer } from '../helpers/mariadb-compare.js';
import { recordedSuite } from '../helpers/mariadb-recorded.js';

const suite = recordedSuite('statements');

/** Statements whose answer differs from MariaDB's, by text, with the reason (docs/sql.md lists them). */
const KNOWN: Readonly<Record<string, string>> = {
  'CREATE TRIGGER tr BEFORE INSERT ON w FOR EACH ROW SET NEW.a = 1':
    'triggers are not supported (1235), and the statement is refused before its table is looked up',
  'SELECT @s, CONCAT(@s, @d), @d * 2':
    'a DECIMAL user variable keeps its scale here; MariaDB gives arithmetic on it 38 decimals',
  'SHOW ENGINES': 'InnoDB is the one engine',
  'SELECT id, LEAD(sal, 1, 0) OVER (ORDER BY id) FROM e ORDER BY id':
    "LAG and LEAD take MySQL 8.0's third argument (the default value); MariaDB 10.11 refuses it",
};

const open: Database[] = [];
afterAll(() => {
  for (const db of open) db.close();
});

describe(`statements against MariaDB ${suite.server}`, () => {
  for (const script of suite.scripts) {
    it(script.name, () => {
      const db = Database.temporary();
      open.push(db);
      const s = new Session(db);
      if (script.sqlMode !== undefined) s.query('SET sql_mode = ?', [script.sqlMode]);
      const wrong: string[] = [];
      for (const st of script.statements) {
        const d = differences(recordedAnswer(st), engineAnswer(s, st.sql), (st as { check?: string }).check);
        if (d.length > 0 && KNOWN[st.sql] === undefined) wrong.push(`${st.sql}\n    ${d.join('\n    ')}`);
        if (d.length === 0 && KNOWN[st.sql] !== undefined)
          wrong.push(`${st.sql}\n    now agrees: drop it from KNOWN`);
      }
      expect(wrong, wrong.join('\n')).toEqual([]);
    });
  }
});
