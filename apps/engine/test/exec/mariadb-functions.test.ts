// The date, time and string functions of test/data/functions.cases.mjs on the engine, against
// MariaDB 10.11's answers recorded in test/data/functions.mariadb.json (the file names the command
// that recorded them). Every difference is either fixed or listed in KNOWN with its reason.
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { differences, engineAnswer, recordedAnswer } from '../helpers/mariadb-compare.js';
import { recordedSuite } from '../helpers/mariadb-recorded.js';

const suite = recordedSuite('functions');

/** Statements whose answer differs from MariaDB's, by text, with the reason (docs/sql.md lists them). */
const KNOWN: Readonly<Record<string, string>> = {
  "SELECT FIELD('b', 'a', 'b', 'c'), FIELD('z', 'a', 'b'), FIELD(NULL, 'a'), FIELD(2, 1, 2, 3), FIELD('2', 1, 2, 3), FIELD(1, 'a', '1')":
    'a string read as a number is not warned about (1292 Truncated incorrect DOUBLE value)',
  "SELECT QUOTE('Don''t!'), QUOTE(NULL), BIN(12), OCT(12), BIN(-1), MD5('abc'), SHA1('abc'), SHA2('abc', 256), SHA2('abc', 1)":
    'QUOTE(NULL) and a NULL SHA2 are strings here, binary strings in MariaDB',
};

const open: Database[] = [];
afterAll(() => {
  for (const db of open) db.close();
});

describe(`functions against MariaDB ${suite.server}`, () => {
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
