// Sessions over temporary databases that close when the test file ends, so a file that makes
// them at its top level or in a helper leaves no temporary directory behind (a test worker's
// process may be ended without running exit hooks).
import { afterAll } from 'vitest';
import { Database, type DatabaseOptions, Session } from '../../src/index.js';

const open: Database[] = [];
afterAll(() => {
  for (const db of open.splice(0)) db.close();
});

/** A session over a new temporary database, closed after the file's last test. */
export function temporarySession(options?: DatabaseOptions): Session {
  const db = Database.temporary(options);
  open.push(db);
  return new Session(db);
}
