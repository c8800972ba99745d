// sqllogictest adapter for SQLite (better-sqlite3, in memory): the runner's own check, run as
// engine `sqlite`. Integers come back as BigInt so that values beyond 2^53 stay exact.
import Database from 'better-sqlite3';

export function createAdapter() {
  const db = new Database(':memory:');
  return {
    /** @param {string} sql */
    exec(sql) {
      let st;
      try {
        st = db.prepare(sql);
      } catch (e) {
        // a record holding several statements: run them all, no result set
        if (e instanceof RangeError && /more than one statement/.test(e.message)) {
          db.exec(sql);
          return undefined;
        }
        throw e;
      }
      st.safeIntegers(true);
      if (st.reader) {
        st.raw(true);
        return { columns: st.columns().map((c) => c.name), rows: st.all() };
      }
      st.run();
      return undefined;
    },
    close() {
      db.close();
    },
  };
}
