// ENUM and SET against MariaDB 10.11's answers, recorded in test/data/enum-set.mariadb.json by the
// command that file names (test/data/enum-set.cases.mjs holds the statements): column names, type
// classes, values, errors, warnings and affected rows. Every difference is fixed or listed in
// KNOWN with its reason (docs/sql.md lists them too).
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { differences, engineAnswer, recordedAnswer } from '../helpers/mariadb-compare.js';
import { recordedSuite } from '../helpers/mariadb-recorded.js';

const suite = recordedSuite('enum-set');

/** Statements whose answer differs from MariaDB's, by text, with the reason. */
const KNOWN: Readonly<Record<string, string>> = {};

const open: Database[] = [];
afterAll(() => {
  for (const db of open) db.close();
});

describe(`ENUM and SET against MariaDB ${suite.server}`, () => {
  for (const script of suite.scripts) {
    it(script.name, () => {
      const db = Database.temporary();
      open.push(db);
      const s = new Session(db);
      const wrong: string[] = [];
      for (const st of script.statements) {
        const d = differences(recordedAnswer(st), engineAnswer(s, st.sql), (st as { check?: string }).check);
        if (d.length > 0 && KNOWN[st.sql] === undefined) wrong.push(`${st.sql}\n    ${d.join('\n    ')}`);
        if (d.length === 0 && KNOWN[st.sql] !== undefined)
          wrong.push(`${st.sql}\n    now agrees: drop it from KNOWN`);
      }
      expect(wrong).toEqual([]);
    });
  }
});
