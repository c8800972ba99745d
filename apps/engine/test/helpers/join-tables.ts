// The two tables the join tests recorded on MariaDB 10.11 share: `p` (200 parts: pk, a brand of
// ten, a size) and `l` (2,000 lines, KEY i_pk (pk): ten a part, a quantity, a mode), created and
// analyzed as they were there.
import type { Session } from '../../src/index.js';

/** Creates and analyzes `p` and `l` in the session's database. */
export function createJoinTables(s: Session): void {
  s.query('CREATE TABLE p (pk INT PRIMARY KEY, brand CHAR(10) NOT NULL, size INT NOT NULL)');
  s.query(
    'CREATE TABLE l (id INT PRIMARY KEY, pk INT NOT NULL, qty INT NOT NULL, mode CHAR(4) NOT NULL, KEY i_pk (pk))',
  );
  const p: string[] = [];
  for (let i = 1; i <= 200; i++) p.push(`(${i}, 'B${i % 10}', ${(i * 7) % 50})`);
  s.query(`INSERT INTO p VALUES ${p.join(', ')}`);
  const l: string[] = [];
  for (let i = 1; i <= 2000; i++)
    l.push(`(${i}, ${1 + ((i * 37) % 200)}, ${(i * 13) % 50}, '${i % 3 === 0 ? 'AIR' : 'SHIP'}')`);
  s.query(`INSERT INTO l VALUES ${l.join(', ')}`);
  s.query('ANALYZE TABLE p, l');
}
