// The wrong-answer hunter (test/helpers/wrong-answer-hunter.ts: TLP and NoREC over random schemas
// and predicates), bounded for CI: a fixed seed and about 25 s. ENGINEKIT_HUNT_SECONDS runs it
// longer, ENGINEKIT_HUNT_SEED from another seed. Every disagreement it found is pinned below
// with its minimal statement.
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/storage/database.js';
import { Session } from '../../src/session/session.js';
import { compare, type Finding, hunt, tally } from '../helpers/wrong-answer-hunter.js';

const dbs: Database[] = [];
afterEach(() => {
  for (const d of dbs.splice(0)) d.close();
});

const SECONDS = Number(process.env.ENGINEKIT_HUNT_SECONDS ?? 25);
const SEED = Number(process.env.ENGINEKIT_HUNT_SEED ?? 20261201);

describe('wrong-answer hunter', () => {
  it('reports a planted disagreement, and none for equivalent forms', () => {
    const db = Database.temporary();
    dbs.push(db);
    const s = new Session(db);
    s.query('CREATE TABLE t (id INT PRIMARY KEY, a INT)');
    s.query('INSERT INTO t VALUES (1, 1), (2, NULL), (3, 3)');
    // a partition that forgets the NULL rows is caught
    const planted = compare(
      s,
      'TLP where',
      'SELECT a FROM t',
      'SELECT a FROM t WHERE a > 1 UNION ALL SELECT a FROM t WHERE NOT (a > 1)',
    );
    expect(planted?.leftRows).toEqual(['["1"]', '["3"]', '[null]']);
    expect(planted?.rightRows).toEqual(['["1"]', '["3"]']);
    expect(
      compare(
        s,
        'TLP where',
        'SELECT a FROM t',
        'SELECT a FROM t WHERE a > 1 UNION ALL SELECT a FROM t WHERE NOT (a > 1) UNION ALL SELECT a FROM t WHERE (a > 1) IS NULL',
      ),
    ).toBeUndefined();
  });

  it(
    'finds no disagreement between TLP partitions or NoREC forms',
    () => {
      const db = Database.temporary();
      dbs.push(db);
      const s = new Session(db);
      const findings: Finding[] = [];
      const end = Date.now() + SECONDS * 1000;
      let rounds = 0;
      for (let seed = SEED; Date.now() < end && findings.length < 5; seed++) {
        findings.push(...hunt(s, seed, 40));
        rounds++;
      }
      expect(rounds).toBeGreaterThan(0);
      if (process.env.ENGINEKIT_HUNT_VERBOSE)
        console.log(
          rounds,
          tally.compared,
          tally.failed,
          [...tally.errors].sort((a, b) => b[1] - a[1]).slice(0, 12),
        );
      // most checks run: a hunt whose statements mostly fail would prove nothing
      expect(tally.compared).toBeGreaterThan(tally.failed * 4);
      expect(
        findings.map(
          (f) =>
            `${f.oracle}\n  ${f.left}\n  ${f.right}\n  ${f.leftRows.join(' ')}\n  ${f.rightRows.join(' ')}`,
        ),
      ).toEqual([]);
    },
    (SECONDS + 60) * 1000,
  );
});
