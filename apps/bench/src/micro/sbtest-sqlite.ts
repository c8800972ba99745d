import Sqlite from 'better-sqlite3';
import type { EngineDatabase, EngineModule, EngineSession } from './common.js';
import {
  SBTEST_INDEX,
  SBTEST_TABLE,
  type SbtestRows,
  sbtestInserts,
  sbtestRow,
} from '../internal/sbtest-rows.js';

/** One engine's sbtest1: enginekit's session (and its database) and better-sqlite3's. */
export interface SbtestPair {
  readonly lite: Sqlite.Database;
  readonly db: EngineDatabase;
  readonly session: EngineSession;
  /** Seconds of the whole load and enginekit's share of them. */
  readonly seconds: number;
  readonly engineSeconds: number;
}

/**
 * The same sbtest1 rows into better-sqlite3 (in memory) and enginekit (a temporary database
 * with a pool of `poolBytes`): the table without k_1, the rows in INSERTs of 1,000, then k_1
 * built after the rows and ANALYZE on both.
 */
export function loadSbtestPair(engine: EngineModule, rows: SbtestRows, poolBytes: number): SbtestPair {
  const lite = new Sqlite(':memory:');
  lite.exec(SBTEST_TABLE);
  const ins = lite.prepare('INSERT INTO sbtest1 VALUES (?, ?, ?, ?)');
  const db = engine.Database.temporary({ innodb_buffer_pool_size: poolBytes });
  const session = new engine.Session(db);
  session.query(SBTEST_TABLE);
  const t0 = performance.now();
  let ek = 0;
  lite.exec('BEGIN');
  let i = 0;
  for (const insert of sbtestInserts(rows, 1000)) {
    for (const end = Math.min(rows.rows, i + 1000); i < end; i++) ins.run(sbtestRow(rows, i));
    const e = performance.now();
    session.query(insert);
    ek += performance.now() - e;
  }
  lite.exec('COMMIT');
  lite.exec(SBTEST_INDEX);
  lite.exec('ANALYZE');
  const e = performance.now();
  session.query(SBTEST_INDEX);
  session.query('ANALYZE TABLE sbtest1');
  ek += performance.now() - e;
  return { lite, db, session, seconds: (performance.now() - t0) / 1000, engineSeconds: ek / 1000 };
}
