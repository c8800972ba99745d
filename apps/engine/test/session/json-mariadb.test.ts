// JSON columns and functions against MariaDB 10.11's answers, recorded in
// test/data/json.mariadb.json by the command that file names (test/data/json.cases.mjs holds the
// statements): values, errors, warnings and affected rows. Every difference is fixed or listed in
// KNOWN with its reason (docs/sql.md lists them too).
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { differences, engineAnswer, recordedAnswer } from '../helpers/mariadb-compare.js';
import { recordedSuite } from '../helpers/mariadb-recorded.js';

const suite = recordedSuite('json');

/** Statements whose answer differs from MariaDB's, by text, with the reason. */
const KNOWN: Readonly<Record<string, string>> = {
  [`SELECT JSON_EXTRACT(NULL, '$.a'), JSON_EXTRACT('{"a": 1}', NULL)`]:
    'MariaDB types JSON_EXTRACT of a NULL document as a binary string; here it stays a string (both are NULL)',
};

const open: Database[] = [];
afterAll(() => {
  for (const db of open) db.close();
});

describe(`JSON against MariaDB ${suite.server}`, () => {
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
      expect(wrong, wrong.join('\n')).toEqual([]);
    });
  }
});
