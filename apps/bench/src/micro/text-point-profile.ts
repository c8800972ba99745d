import { importEngine } from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';

async function run(_a: MicroArgs, io: MicroIo): Promise<void> {
  const { Database, Session } = await importEngine();
  const db = Database.temporary({});
  const s = new Session(db);
  s.query(
    "CREATE TABLE sbtest1 (id INT NOT NULL, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id))",
  );
  for (let i = 1; i <= 1000; i++) s.query(`INSERT INTO sbtest1 VALUES (${i}, ${i}, 'c${i}', 'p')`);
  for (let r = 0; r < 6; r++) {
    const t = performance.now();
    for (let i = 0; i < 5000; i++) s.query(`SELECT c FROM sbtest1 WHERE id=${1 + ((i * 7919) % 1000)}`);
    io.out(`round ${r + 1}: ${(((performance.now() - t) / 5000) * 1000).toFixed(1)} µs per statement`);
  }
  s.close();
  db.close();
}

export const textPointProfile: MicroBench = {
  name: 'text-point-profile',
  title: 'point selects sent as text, a new id each time, for a CPU profile of the parse',
  about: `\`SELECT c FROM sbtest1 WHERE id=N\` (what a client without prepared statements sends) on one
session over 1,000 rows: 6 rounds of 5,000, µs per statement per round. Run it under
\`node --cpu-prof\` to see the parse's share of the profile.`,
  options: {},
  run,
};
