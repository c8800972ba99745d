// A test double for the pool's watchdog: SQLite, except that any SQL naming `stall_forever`
// spins without end and any naming `crash_now` exits the worker thread.
import { createAdapter as sqlite } from './sql-slt-adapter-sqlite.js';

export function createAdapter() {
  const inner = sqlite();
  return {
    /** @param {string} sql */
    exec(sql) {
      if (sql.includes('stall_forever')) for (;;);
      if (sql.includes('crash_now')) process.exit(3);
      return inner.exec(sql);
    },
    close() {
      inner.close();
    },
  };
}
