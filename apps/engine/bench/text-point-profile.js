// Point selects sent as text with a new id each time (`SELECT c FROM sbtest1 WHERE id=N`, what a
// client without prepared statements sends) on one session over 1,000 rows: 6 rounds of 5,000,
// µs per statement per round. Run under `node --cpu-prof` to see the parse's share of the profile.
// Imports the built package (`pnpm build` first).
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/text-point-profile.js
import { Database, Session } from '../dist/index.js';

const db = Database.temporary({});
const s = new Session(db);
s.query(
  "CREATE TABLE sbtest1 (id INT NOT NULL, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id))",
);
for (let i = 1; i <= 1000; i++) s.query(`INSERT INTO sbtest1 VALUES (${i}, ${i}, 'c${i}', 'p')`);
for (let r = 0; r < 6; r++) {
  const t = performance.now();
  for (let i = 0; i < 5000; i++) s.query(`SELECT c FROM sbtest1 WHERE id=${1 + ((i * 7919) % 1000)}`);
  console.log(`round ${r + 1}: ${(((performance.now() - t) / 5000) * 1000).toFixed(1)} µs per statement`);
}
db.close();
