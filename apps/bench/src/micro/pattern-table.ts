import { SBTEST_PATTERN_TABLE, sbtestPatternInserts } from '../internal/sbtest-rows.js';
import type { EngineDatabase, EngineModule, EngineSession } from './common.js';

/** A database file with the server benchmarks' deterministic sbtest1 of `rows` rows, and its session. */
export function patternTable(
  engine: EngineModule,
  path: string,
  rows: number,
): { db: EngineDatabase; s: EngineSession } {
  const db = engine.Database.create(path);
  const s = new engine.Session(db);
  s.query(SBTEST_PATTERN_TABLE);
  for (const insert of sbtestPatternInserts(rows)) s.query(insert);
  return { db, s };
}
