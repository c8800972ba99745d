// The status counter registry (src/exec/status.ts) against what SHOW STATUS lists: every counter
// is declared once, with its scope and owner, and SHOW SESSION / GLOBAL STATUS list exactly the
// registry's names (the redo log's only when the database has one); a session-scope counter is
// the session's own, a global one the same in every session; every name is documented.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STATUS, type StatusName, SUMMED_STATUS } from '../../src/exec/status.js';
import { Database } from '../../src/storage/database.js';
import { Session } from '../../src/session/session.js';
import { temporarySession } from '../helpers/temporary.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-status-registry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ALL = Object.keys(STATUS) as StatusName[];
const listed = (s: Session, scope: 'SESSION' | 'GLOBAL'): Map<string, number> =>
  new Map(s.query(`SHOW ${scope} STATUS`).rows.map((r) => [String(r[0]), Number(r[1])]));

describe('the status counter registry', () => {
  it('SHOW SESSION and GLOBAL STATUS list exactly its names, the redo log’s only with one', () => {
    const temporary = temporarySession();
    const noRedo = ALL.filter((n) => STATUS[n].owner !== 'redo').sort();
    for (const scope of ['SESSION', 'GLOBAL'] as const)
      expect([...listed(temporary, scope).keys()].sort()).toEqual(noRedo);

    const db = Database.create(join(dir, 'r.ekdb'), { innodb_log_file_size: 1 << 20 });
    try {
      const s = new Session(db);
      for (const scope of ['SESSION', 'GLOBAL'] as const)
        expect([...listed(s, scope).keys()].sort()).toEqual([...ALL].sort());
      expect(Object.keys(s.status()).sort()).toEqual([...ALL].sort());
    } finally {
      db.close();
    }
  });

  it('a session-scope counter is the session’s own; a global one is the same for everyone', () => {
    const a = temporarySession();
    const db = a.db;
    const b = new Session(db);
    a.query('CREATE TABLE t (id INT PRIMARY KEY)');
    const written = a.status().Handler_write!;
    a.query('INSERT INTO t VALUES (1), (2), (3)');
    for (let i = 0; i < 3; i++) a.query('SELECT * FROM t');
    b.query('SELECT 1');
    const sa = listed(a, 'SESSION');
    const sb = listed(b, 'SESSION');
    const g = listed(b, 'GLOBAL');
    // the SHOWs above counted too: a's own SHOW SESSION, b's SHOW SESSION and SHOW GLOBAL
    expect(sa.get('Com_select')).toBe(3);
    expect(sb.get('Com_select')).toBe(1);
    expect(g.get('Com_select')).toBe(4);
    expect(sa.get('Handler_write')).toBe(written + 3);
    expect(sb.get('Handler_write')).toBe(0);
    for (const n of ALL)
      if (STATUS[n].scope === 'global' && STATUS[n].owner === 'buffer-pool')
        expect(sb.get(n), n).toBe(g.get(n));
    expect(sa.get('Innodb_buffer_pool_pages_total')).toBeGreaterThan(0);
  });

  it('sums over worker threads only counts, never levels', () => {
    for (const n of SUMMED_STATUS) {
      expect(STATUS[n].level, n).toBeUndefined();
      expect(['statement', 'server', 'host']).toContain(STATUS[n].owner);
    }
    expect(SUMMED_STATUS).toContain('Com_commit');
    expect(SUMMED_STATUS).toContain('Connections');
    expect(SUMMED_STATUS).not.toContain('Threads_connected');
  });

  it('every counter is documented, by name or by a family pattern such as `Innodb_buffer_pool_*`', () => {
    const docs = join(import.meta.dirname, '..', '..', '..', '..', 'docs');
    const text = ['sql.md', 'server.md', 'durability.md']
      .map((f) => readFileSync(join(docs, f), 'utf8'))
      .join('\n');
    const quoted = new Set([...text.matchAll(/`([A-Za-z_*()]+)`/g)].map((m) => m[1]!));
    // a family is a capitalised prefix ending in `_*` (`Innodb_buffer_pool_*`), never a bare `*`
    const families = [...quoted]
      .filter((q) => /^[A-Z][A-Za-z]*_[A-Za-z_]*\*$/.test(q))
      .map((q) => new RegExp(`^${q.replace(/\*/g, '[A-Za-z_]*')}$`));
    const undocumented = ALL.filter((n) => !quoted.has(n) && !families.some((f) => f.test(n)));
    expect(undocumented).toEqual([]);
  });
});
