// SHOW STATUS and SHOW VARIABLES with WHERE over their own columns, as MariaDB 10.11 answers:
//   SHOW SESSION STATUS WHERE Variable_name LIKE 'Com_sel%' OR Variable_name = 'Questions'
//     → Com_select 0, Questions 1 (on a fresh connection)
//   SHOW VARIABLES WHERE Variable_name = 'mrr_buffer_size' AND Value > 1000 → mrr_buffer_size 262144
//   SHOW STATUS WHERE nope = 1 → ERROR 1054 (42S22) Unknown column 'nope' in 'WHERE'
import { afterAll, describe, expect, it } from 'vitest';
import { Session } from '../../src/session/session.js';
import { Database } from '../../src/storage/database.js';

const db = Database.temporary();
afterAll(() => db.close());

describe('SHOW STATUS / VARIABLES … WHERE', () => {
  it('keeps the rows the condition accepts, as MariaDB', () => {
    const s = new Session(db);
    expect(
      s.query("SHOW SESSION STATUS WHERE Variable_name LIKE 'Com_sel%' OR Variable_name = 'Questions'").rows,
    ).toEqual([
      ['Com_select', '0'],
      ['Questions', '1'],
    ]);
    expect(s.query("SHOW VARIABLES WHERE Variable_name = 'mrr_buffer_size' AND Value > 1000").rows).toEqual([
      ['mrr_buffer_size', '262144'],
    ]);
    expect(s.query("SHOW VARIABLES LIKE 'join_cache_lev%'").rows).toEqual([['join_cache_level', '2']]);
    let err: unknown;
    try {
      s.query('SHOW STATUS WHERE nope = 1');
    } catch (e) {
      err = e;
    }
    expect((err as { errno: number }).errno).toBe(1054);
    expect((err as Error).message).toBe("Unknown column 'nope' in 'WHERE'");
    s.close();
  });
});
