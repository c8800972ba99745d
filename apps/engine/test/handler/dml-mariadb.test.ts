// Handler counters of writes equal MariaDB 10.11's: a write's own work (the unique checks, finding
// the record it changes) counts no handler read of its own; the read that found the rows does,
// once, and Handler_write / _update / _delete count each call, a failed one included.
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/storage/database.js';
import { Session } from '../../src/session/session.js';

/**
 * Recorded from MariaDB 10.11 on one InnoDB table, the statements run in this order:
 *   CREATE TABLE w (id INT PRIMARY KEY, u INT, v INT, UNIQUE KEY uu (u));
 *   INSERT INTO w VALUES (1,1,1),(2,2,2),(3,3,3),(5,5,5),(6,6,6),(8,8,8),(9,9,9),(10,10,10);
 *   ANALYZE TABLE w;
 * then for each statement `FLUSH STATUS; <statement>; SHOW SESSION STATUS WHERE Variable_name
 * LIKE 'Handler_%' AND Value <> '0'` (Handler_commit, Handler_prepare and Handler_rollback left
 * out), with `mariadb --force` for the failing one.
 */
const CASES: readonly { sql: string; status: Record<string, number>; error?: number }[] = [
  { sql: 'INSERT INTO w VALUES (7,7,7)', status: { Handler_write: 1 } },
  { sql: 'UPDATE w SET v=v+1 WHERE id=5', status: { Handler_read_key: 1, Handler_update: 1 } },
  { sql: 'UPDATE w SET u=90 WHERE id=1', status: { Handler_read_key: 1, Handler_update: 1 } },
  { sql: 'UPDATE w SET v=v+1 WHERE u=2', status: { Handler_read_key: 1, Handler_update: 1 } },
  { sql: 'DELETE FROM w WHERE id=3', status: { Handler_delete: 1, Handler_read_key: 1 } },
  { sql: 'UPDATE w SET v=v+1 WHERE id=4', status: { Handler_read_key: 1 } },
  {
    sql: 'DELETE FROM w WHERE id BETWEEN 8 AND 9',
    status: { Handler_delete: 2, Handler_read_key: 1, Handler_read_next: 2 },
  },
  { sql: 'UPDATE w SET v=0 WHERE v>5', status: { Handler_read_rnd_next: 7, Handler_update: 4 } },
  { sql: 'INSERT INTO w VALUES (11,2,11)', status: { Handler_write: 1 }, error: 1062 },
];

/**
 * Where the engine counts otherwise, and why. MariaDB's REPLACE and INSERT … ON DUPLICATE KEY
 * UPDATE try the write first and, on a duplicate, read the clashing row by the key that clashed
 * (REPLACE INTO w VALUES (2,2,20): Handler_write 2, Handler_read_key 1, Handler_delete 1; INSERT
 * INTO w VALUES (6,60,60) ON DUPLICATE KEY UPDATE v=v+100: Handler_write 1, Handler_read_key 1,
 * Handler_update 1); the engine looks each unique key up before writing.
 */
const DIFFERENT: readonly { sql: string; status: Record<string, number> }[] = [
  {
    sql: 'REPLACE INTO w VALUES (2,2,20)',
    status: { Handler_delete: 1, Handler_read_key: 2, Handler_write: 1 },
  },
  {
    sql: 'INSERT INTO w VALUES (6,60,60) ON DUPLICATE KEY UPDATE v=v+100',
    status: { Handler_read_key: 1, Handler_update: 1 },
  },
];

describe('handler counters of writes, as MariaDB 10.11', () => {
  it('each statement counts what MariaDB counts', () => {
    const db = Database.temporary();
    try {
      const s = new Session(db);
      s.query('CREATE TABLE w (id INT PRIMARY KEY, u INT, v INT, UNIQUE KEY uu (u))');
      s.query('INSERT INTO w VALUES (1,1,1),(2,2,2),(3,3,3),(5,5,5),(6,6,6),(8,8,8),(9,9,9),(10,10,10)');
      s.query('ANALYZE TABLE w');
      const status = (): Record<string, number> => {
        const out: Record<string, number> = {};
        for (const [name, value] of s.query(
          "SHOW SESSION STATUS WHERE Variable_name LIKE 'Handler_%' AND Value <> '0'",
        ).rows as [string, string][])
          if (!['Handler_commit', 'Handler_prepare', 'Handler_rollback'].includes(name))
            out[name] = Number(value);
        return out;
      };
      for (const c of [...CASES, ...DIFFERENT]) {
        s.query('FLUSH STATUS');
        let errno: number | undefined;
        try {
          s.query(c.sql);
        } catch (e) {
          errno = (e as { errno?: number }).errno;
        }
        expect({ sql: c.sql, errno, status: status() }).toEqual({
          sql: c.sql,
          errno: 'error' in c ? c.error : undefined,
          status: c.status,
        });
      }
      expect(s.query('SELECT * FROM w ORDER BY id').rows).toEqual([
        [1, 90, 1],
        [2, 2, 20],
        [5, 5, 0],
        [6, 6, 100],
        [7, 7, 0],
        [10, 10, 0],
      ]);
    } finally {
      db.close();
    }
  });
});
