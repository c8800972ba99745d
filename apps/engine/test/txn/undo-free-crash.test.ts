// Freeing an undo log is many mini-transactions (64 pages each, the header page last), and a crash
// can fall between any two: the log stays named by its slot, or first in its history list, marked
// to be freed, until its last page goes, and the next open finishes the job. For a committed
// insert log and for a log purge was done with, a crash after every possible number of steps
// leaves the free list and the file exactly as the run without a crash leaves them, and the rows
// as committed. (A rollback frees a log's pages as it empties them, one record at a time, and
// leaves a one-page log for the cache.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database, type DatabaseOptions, Session } from '../../src/index.js';
import type { LogToFree } from '../../src/storage/undo-log.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-undo-free-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const OPTS: DatabaseOptions = {
  innodb_page_size: 4096,
  innodb_buffer_pool_size: 2048 * 4096,
  innodb_log_file_size: 4 << 20,
};

class Crash extends Error {}

interface Outcome {
  readonly freePages: number;
  readonly fileSize: number;
  readonly rows: unknown[];
  readonly history: number;
  /** Free steps run before the crash (all of them without one). */
  readonly steps: number;
}

/**
 * Runs `setup`, then `act` with the undo space's free steps stopping after `crashAfter` (the
 * log made durable, then the database abandoned as a crash would), reopens, and reports.
 */
function run(
  setup: (s: Session) => void,
  act: (s: Session, db: Database) => void,
  crashAfter = Infinity,
): Outcome {
  const path = join(dir, `f${n++}.ekdb`);
  const db = Database.create(path, OPTS);
  const s = new Session(db);
  setup(s);
  const undo = db.undo;
  const step = undo.freeStep.bind(undo);
  let steps = 0;
  undo.freeStep = (f: LogToFree): boolean => {
    if (steps === crashAfter) {
      db.commit();
      throw new Crash(`crash before free step ${steps + 1}`);
    }
    steps++;
    return step(f);
  };
  try {
    act(s, db);
  } catch (e) {
    if (!(e instanceof Crash)) throw e;
  }
  db.commit();
  db.abandon();
  const again = Database.open(path, OPTS);
  try {
    const t = again.table('t');
    t.checkIndexes(true);
    return {
      freePages: again.freePages,
      fileSize: again.pool.spaceSize(0),
      rows: new Session(again).query('SELECT COUNT(*), SUM(k), SUM(LENGTH(pad)) FROM t').rows[0]!,
      history: again.historyLength,
      steps,
    };
  } finally {
    again.close();
  }
}

const create = (s: Session): void => {
  s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(200) NOT NULL, KEY kk (k))');
};

/** `rows` rows from `from`, 500 per statement. */
function insert(s: Session, from: number, rows: number): void {
  for (let i = from; i < from + rows; i += 500) {
    const values = Array.from(
      { length: Math.min(500, from + rows - i) },
      (_, j) => `(${i + j}, ${(i + j) % 97}, 'r${i + j}')`,
    );
    s.query(`INSERT INTO t VALUES ${values.join(', ')}`);
  }
}

/** Runs `act` without a crash, then with a crash before each of its free steps; every outcome equals the first. */
function everyCrashPoint(setup: (s: Session) => void, act: (s: Session, db: Database) => void): void {
  const clean = run(setup, act);
  // the log is long enough to take several steps
  expect(clean.steps).toBeGreaterThanOrEqual(3);
  for (let k = 0; k < clean.steps; k++) {
    const crashed = run(setup, act, k);
    expect(crashed.steps, `crash before step ${k + 1}`).toBe(k);
    expect({ ...crashed, steps: k }, `crash before step ${k + 1}`).toEqual({ ...clean, steps: k });
  }
}

describe('a crash while an undo log is freed', () => {
  it('a committed insert log: freed at the next open, rows committed', () => {
    everyCrashPoint(
      (s) => {
        create(s);
        s.query('BEGIN');
        insert(s, 0, 12_000);
      },
      (s) => s.query('COMMIT'),
    );
  });

  it('a log purge was done with: its pages freed at the next open, the history empty', () => {
    // a snapshot held open keeps the committing session's own purge batch from taking the log
    let reader: Session | null = null;
    everyCrashPoint(
      (s) => {
        create(s);
        insert(s, 0, 5_000);
        reader = new Session(s.db);
        reader.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
        s.query('BEGIN');
        s.query("UPDATE t SET k = k + 1, pad = CONCAT(pad, REPEAT('u', 150))");
        s.query('DELETE FROM t WHERE id % 3 = 0');
        s.query('COMMIT');
      },
      (_, db) => {
        reader?.query('COMMIT');
        expect(db.historyLength).toBe(1);
        while (db.historyLength > 0) db.purge(1000);
      },
    );
  });
});
