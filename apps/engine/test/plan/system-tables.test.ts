import { afterEach, describe, expect, it } from 'vitest';
import { T_INT, T_STR } from '../../src/exec/types.js';
import { registerSystemTable } from '../../src/plan/system-tables.js';
import { Session } from '../../src/session/session.js';
import { Database } from '../../src/storage/database.js';

describe('system tables and SHOW ENGINE INNODB STATUS', () => {
  let db: Database | undefined;
  afterEach(() => db?.close());

  it('a registered information_schema table is queried like any other, in any letter case', () => {
    registerSystemTable('information_schema', 'ENGINEKIT_TEST_NUMBERS', {
      columns: ['N', 'NAME'],
      types: [T_INT, T_STR],
      rows: () => [
        [1, 'one'],
        [2, 'two'],
        [3, 'three'],
      ],
    });
    db = Database.temporary();
    const s = new Session(db);
    const r = s.query(
      'SELECT name FROM INFORMATION_SCHEMA.enginekit_test_numbers WHERE n >= 2 ORDER BY n DESC',
    );
    expect(r.rows).toEqual([['three'], ['two']]);
  });

  it('an unknown table in information_schema is error 1109', () => {
    db = Database.temporary();
    const s = new Session(db);
    expect(() => s.query('SELECT * FROM information_schema.no_such_thing')).toThrow(
      expect.objectContaining({
        errno: 1109,
        message: "Unknown table 'no_such_thing' in information_schema",
      }),
    );
  });

  it('SHOW ENGINE INNODB STATUS prints the monitor banners and the buffer pool section', () => {
    db = Database.temporary();
    const s = new Session(db);
    const r = s.query('SHOW ENGINE INNODB STATUS');
    expect(r.columns).toEqual(['Type', 'Name', 'Status']);
    const text = String(r.rows[0]![2]);
    expect(text).toMatch(/INNODB MONITOR OUTPUT/);
    expect(text).toMatch(/BUFFER POOL AND MEMORY\n-+\nBuffer pool size +\d+/);
    expect(text).toMatch(/END OF INNODB MONITOR OUTPUT/);
  });
});
