// The peer: SQLite (better-sqlite3) CREATE INDEX on the same rows, file database in the temp
// directory, journal off, synchronous off (the load is not timed, only the index build).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tableRows } from './data.js';

export function sqliteCreateIndex(rows) {
  const dir = mkdtempSync(join(tmpdir(), 'msi-sqlite-'));
  try {
    const db = new Database(join(dir, 'peer.db'));
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec('CREATE TABLE sbtest1 (id INTEGER PRIMARY KEY, c BLOB NOT NULL)');
    const insert = db.prepare('INSERT INTO sbtest1 (id, c) VALUES (?, ?)');
    db.transaction(() => tableRows(rows)((id, c) => insert.run(id, c)))();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    db.exec('CREATE INDEX idx_c ON sbtest1 (c)');
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const count = db
      .prepare('SELECT count(*) AS n FROM sbtest1 INDEXED BY idx_c WHERE c >= ?')
      .get(Buffer.alloc(0)).n;
    db.close();
    if (count !== rows) throw new Error(`SQLite index holds ${count} rows, expected ${rows}`);
    return { ms, cpuMs: (c.user + c.system) / 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function sqliteVersion() {
  const db = new Database(':memory:');
  const v = db.prepare('SELECT sqlite_version() AS v').get().v;
  db.close();
  return v;
}
