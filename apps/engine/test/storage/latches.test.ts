import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../src/session/session.js';
import { Database } from '../../src/storage/database.js';

describe('the latches option end to end', () => {
  let db: Database | undefined;
  afterEach(() => db?.close());

  for (const latches of ['atomic', 'legacy'] as const) {
    it(`${latches}: trees work through the pool's ${latches} page latches; SEMAPHORES prints the pool's counters`, () => {
      db = Database.temporary({ latches, innodb_buffer_pool_size: 12 * 16384 });
      expect(db.pool.latches).toBe(latches);
      const s = new Session(db);
      s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT, c VARCHAR(40))');
      s.query('CREATE INDEX k_1 ON t (k)');
      // Enough rows to split pages and evict some from a 12-frame pool.
      for (let i = 0; i < 40; i++) {
        const values = Array.from({ length: 100 }, (_, j) => {
          const id = i * 100 + j;
          return `(${id}, ${(id * 7919) % 1000}, 'row-${id}-${'x'.repeat(20)}')`;
        });
        s.query(`INSERT INTO t VALUES ${values.join(', ')}`);
      }
      expect(s.query('SELECT COUNT(*) FROM t').rows[0]![0]).toBe(4000);
      expect(s.query('SELECT COUNT(*) FROM t WHERE k = 7').rows[0]![0]).toBe(4);
      db.table('t').checkIndexes();
      db.pool.checkValid();
      expect(db.pool.stats().Innodb_buffer_pool_reads).toBeGreaterThan(0);
      const text = String(s.query('SHOW ENGINE INNODB STATUS').rows[0]![2]);
      const l = db.pool.latchStats();
      const expected = [
        '----------',
        'SEMAPHORES',
        '----------',
        `OS WAIT ARRAY INFO: reservation count ${l.reservations}, signal count ${l.signals}`,
        `Mutex spin waits ${l.mutex.spinWaits}, rounds ${l.mutex.spinRounds}, OS waits ${l.mutex.osWaits}`,
        `RW-shared spins ${l.rwShared.spinWaits}, rounds ${l.rwShared.spinRounds}, OS waits ${l.rwShared.osWaits}`,
        `RW-excl spins ${l.rwExcl.spinWaits}, rounds ${l.rwExcl.spinRounds}, OS waits ${l.rwExcl.osWaits}`,
      ].join('\n');
      expect(text).toContain(expected);
      expect(text.indexOf('SEMAPHORES')).toBeLessThan(text.indexOf('BUFFER POOL AND MEMORY'));
    });
  }

  it('a bad latches value is refused with its name', () => {
    expect(() => Database.temporary({ latches: 'spin' as 'atomic' })).toThrow(
      /latches must be atomic or legacy, got spin/,
    );
  });
});
