// sqllogictest adapter for enginekit, run as engine `mysql`: a temporary database per file and
// one session on it. Loads the built engine (dist/), since the runner lives in worker threads.
import { Database, Session } from '../../dist/index.js';

export async function createAdapter() {
  const ctor = /** @type {{ temporary?: (o?: unknown) => unknown }} */ (/** @type {unknown} */ (Database));
  if (typeof ctor.temporary !== 'function')
    throw new Error('this build of the engine has no Database.temporary()');
  const db =
    /** @type {{ session(): { query(sql: string): { columns: string[], rows: unknown[][] }, close?(): void }, close(): void }} */ (
      await ctor.temporary()
    );
  const session = new Session(db);
  return {
    /** @param {string} sql */
    exec(sql) {
      return session.query(sql);
    },
    close() {
      session.close?.();
      db.close();
    },
  };
}
