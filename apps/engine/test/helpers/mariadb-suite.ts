// The test of a recorded MariaDB suite (test/data/<name>.mariadb.json): each script on a fresh
// temporary database and session, under its sql_mode, every statement's answer compared with
// MariaDB's; a difference fails unless `known` lists the statement with its reason, and a listed
// statement that now agrees fails too (its entry is stale).
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { differences, engineAnswer, recordedAnswer } from './mariadb-compare.js';
import { recordedSuite } from './mariadb-recorded.js';

export function describeRecordedSuite(
  name: string,
  title: string,
  known: Readonly<Record<string, string>> = {},
): void {
  const suite = recordedSuite(name);
  const open: Database[] = [];
  afterAll(() => {
    for (const db of open) db.close();
  });
  describe(`${title} against MariaDB ${suite.server}`, () => {
    for (const script of suite.scripts) {
      it(script.name, () => {
        const db = Database.temporary();
        open.push(db);
        const s = new Session(db);
        if (script.sqlMode !== undefined) s.query('SET sql_mode = ?', [script.sqlMode]);
        const wrong: string[] = [];
        for (const st of script.statements) {
          const d = differences(
            recordedAnswer(st),
            engineAnswer(s, st.sql),
            (st as { check?: string }).check,
          );
          if (d.length > 0 && known[st.sql] === undefined) wrong.push(`${st.sql}\n    ${d.join('\n    ')}`);
          if (d.length === 0 && known[st.sql] !== undefined)
            wrong.push(`${st.sql}\n    now agrees: drop it from KNOWN`);
        }
        expect(wrong, wrong.join('\n')).toEqual([]);
      });
    }
  });
}
