// Database.open(path, { readOnly: true }): what `enginekit info` opens with. Nothing it does may
// change a byte, a length or an mtime of the database's files, or add a file beside them.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { NeedsRecoveryError } from '../../src/storage/read-only.js';

const root = mkdtempSync(join(tmpdir(), 'engine-read-only-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => mkdtempSync(join(root, `case-${n++}-`));

/** Every file of a directory: SHA-256, size and mtime. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir)) {
    const st = statSync(join(dir, f));
    const sha = createHash('sha256')
      .update(readFileSync(join(dir, f)))
      .digest('hex');
    out[f] = `${sha} ${st.size} ${st.mtimeMs}`;
  }
  return out;
}

function filled(path: string, rows: number, options: { redo?: boolean } = {}): Database {
  const db = Database.create(path, { innodb_log_file_size: 1 << 20, ...options });
  const s = new Session(db);
  s.query('CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20), KEY iv (v))');
  for (let i = 0; i < rows; i += 100)
    s.query(
      `INSERT INTO t VALUES ${Array.from({ length: Math.min(100, rows - i) }, (_, j) => `(${i + j}, 'v${(i + j) % 7}')`).join(',')}`,
    );
  return db;
}

describe('Database.open with readOnly', () => {
  it('reads a database with and without a redo log, and leaves every file as it was', () => {
    for (const redo of [true, false]) {
      const dir = fresh();
      const path = join(dir, 'db.ekdb');
      filled(path, 500, { redo }).close();
      const before = snapshot(dir);
      const db = Database.open(path, { readOnly: true });
      expect(new Session(db).query("SELECT COUNT(*) FROM t WHERE v = 'v3'").rows).toEqual([[71]]);
      expect(db.table('t').rows).toBe(500);
      db.close();
      expect(snapshot(dir)).toEqual(before);
      // no redo log or doublewrite file appeared beside a database that had none
      if (!redo) expect(Object.keys(before)).toEqual(['db.ekdb']);
    }
  });

  it('changes made through it stay in memory: flush is refused naming the file, close writes nothing', () => {
    const dir = fresh();
    const path = join(dir, 'db.ekdb');
    filled(path, 10).close();
    const before = snapshot(dir);
    const db = Database.open(path, { readOnly: true });
    new Session(db).query("INSERT INTO t VALUES (1000, 'new')");
    expect(() => db.flush()).toThrow(`${path} is open read-only`);
    db.close();
    expect(snapshot(dir)).toEqual(before);
    const again = Database.open(path, { readOnly: true });
    expect(again.table('t').rows).toBe(10);
    again.close();
  });

  it('after a crash with nothing to redo, the row counts come from the trees (in memory)', () => {
    const dir = fresh();
    const path = join(dir, 'db.ekdb');
    const db = filled(path, 300);
    // every page written and a checkpoint taken, but the row counts never stored: as a crash
    // right after the page cleaner's checkpoint
    db.pool.flushAll();
    db.pageCleaner?.checkpoint();
    db.abandon();
    const before = snapshot(dir);
    const ro = Database.open(path, { readOnly: true });
    expect(ro.table('t').rows).toBe(300);
    ro.close();
    expect(snapshot(dir)).toEqual(before);
  });

  it('a database that needs crash recovery is refused, naming the log file; nothing is written', () => {
    const dir = fresh();
    const path = join(dir, 'db.ekdb');
    const db = filled(path, 50);
    db.abandon(); // the committed rows are in the log only
    const before = snapshot(dir);
    let error: unknown;
    try {
      Database.open(path, { readOnly: true });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NeedsRecoveryError);
    expect((error as NeedsRecoveryError).file).toBe(`${path}.ib_logfile0`);
    expect((error as Error).message).toContain(`${path} needs crash recovery`);
    expect(snapshot(dir)).toEqual(before);
    const recovered = Database.open(path);
    expect(recovered.table('t').rows).toBe(50);
    recovered.close();
  });

  it('is for opening only', () => {
    expect(() => Database.create(join(fresh(), 'x.ekdb'), { readOnly: true })).toThrow(
      /cannot be created read-only/,
    );
  });
});
