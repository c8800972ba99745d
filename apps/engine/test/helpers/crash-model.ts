// The crash-recovery model the redo tests share: table t (an int key, an indexed int, a padded
// varchar), options small enough that a short workload evicts pages, fills the log and
// checkpoints, a seeded workload of small transactions, and the check of a recovered database
// against the committed states (every tree and index consistent).
import { expect } from 'vitest';
import { Database, type DatabaseOptions, type TableSchema } from '../../src/index.js';

export const SCHEMA: TableSchema = {
  name: 't',
  columns: [
    { name: 'id', type: { kind: 'int' } },
    { name: 'a', type: { kind: 'int' } },
    { name: 'pad', type: { kind: 'varchar', length: 300 } },
  ],
  primaryKey: ['id'],
  indexes: [{ name: 'i_a', columns: ['a'] }],
};

/** Small everything, so a short workload evicts pages, fills the log and checkpoints. */
export const OPTS: DatabaseOptions = {
  innodb_page_size: 4096,
  innodb_buffer_pool_size: 16 * 4096,
  innodb_log_file_size: 65536,
  innodb_log_files_in_group: 2,
  innodb_log_buffer_size: 8192,
};

export type Row = [number, number, string];
export type Op = { kind: 'put'; row: Row } | { kind: 'del'; id: number };

/** A seeded workload: transactions of 1–3 operations over 400 keys. */
export function workload(seed: number, count: number): Op[][] {
  let s = seed >>> 0 || 1;
  const rnd = (n: number): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
  const out: Op[][] = [];
  for (let i = 0; i < count; i++) {
    const trx: Op[] = [];
    const n = 1 + rnd(3);
    for (let k = 0; k < n; k++) {
      const id = rnd(400);
      if (rnd(4) === 0) trx.push({ kind: 'del', id });
      else trx.push({ kind: 'put', row: [id, rnd(40), 'x'.repeat(20 + rnd(250))] });
    }
    out.push(trx);
  }
  return out;
}

/** A new database at `path` with table t. */
export function setup(path: string): void {
  const db = Database.create(path, OPTS);
  db.createTable(SCHEMA);
  db.close();
}

/** The committed states a crashed run leaves: those acknowledged, and with the one committing. */
export interface Committed {
  committed: Map<number, Row>;
  /** The model with the transaction that was committing when the crash came. */
  withPending: Map<number, Row> | null;
}

export function contents(db: Database): Map<number, Row> {
  const out = new Map<number, Row>();
  db.table('t').scan((r) => {
    const v = r.toArray() as [number, number, string | Uint8Array];
    const pad = typeof v[2] === 'string' ? v[2] : new TextDecoder().decode(v[2]);
    out.set(v[0], [v[0], v[1], pad]);
    return true;
  });
  return out;
}

/** Opens the recovered database and checks it holds exactly the committed rows (or those with the pending one). */
export function checkRecovered(path: string, r: Committed): void {
  const db = Database.open(path, OPTS);
  try {
    const got = contents(db);
    const t = db.table('t');
    t.checkIndexes();
    for (const ix of [t.primary, ...t.secondary]) ix.tree.checkValid();
    db.pool.checkValid();
    expect(t.rows).toBe(got.size);
    const sorted = (m: Map<number, Row>) => [...m.entries()].sort((a, b) => a[0] - b[0]);
    if (r.withPending !== null && sorted(got).length === r.withPending.size) {
      const a = JSON.stringify(sorted(got));
      if (a === JSON.stringify(sorted(r.withPending))) return;
    }
    expect(sorted(got)).toEqual(sorted(r.committed));
  } finally {
    db.close();
  }
}
