// Two builds of enginekit side by side in one process, statement by statement, alternately (old,
// new, then new, old, …), each on its own copy of the same sysbench-shaped table (100,000 rows,
// id primary key, k with index k_1, c CHAR(120), pad CHAR(60)): the text path (a point select
// with the id in the text, `SELECT 1`), prepared point and `ref` selects, and sysbench's
// order_ranges and distinct_ranges statements over 100 ids. Prints the median µs per statement
// of each build and the ratio. For before/after figures on a busy machine: both builds see the
// same load at the same moments.
//   node bench/sql-statements-ab.js <old dist folder> [<new dist folder>, default ../dist]
//   ROUNDS=9 node bench/sql-statements-ab.js /tmp/old/apps/engine/dist
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';
if (process.argv[2] === undefined) {
  console.log('usage: node bench/sql-statements-ab.js <old dist folder> [<new dist folder>]');
  process.exit(2);
}
const distUrl = (d) => pathToFileURL(resolve(d, 'index.js')).href;
const builds = {
  old: distUrl(process.argv[2]),
  new:
    process.argv[3] === undefined
      ? new URL('../dist/index.js', import.meta.url).href
      : distUrl(process.argv[3]),
};
const rows = 100000;
const envs = {};
for (const [name, path] of Object.entries(builds)) {
  const { Database, Session } = await import(path);
  const db = await Database.temporary({ innodb_buffer_pool_size: 256 * 1024 * 1024 });
  const s = new Session(db);
  s.query(
    `CREATE TABLE sbtest1 (id INT NOT NULL, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id))`,
  );
  let st = 0x9e3779b9;
  const next = () => {
    st ^= st << 13;
    st ^= st >>> 17;
    st ^= st << 5;
    return st >>> 0;
  };
  const dig = (g) => {
    const p = [];
    for (let i = 0; i < g; i++) {
      let x = '';
      for (let d = 0; d < 11; d++) x += String(next() % 10);
      p.push(x);
    }
    return p.join('-');
  };
  for (let id = 1; id <= rows; id += 1000) {
    const v = [];
    for (let r = id; r < id + 1000; r++) v.push(`(${r}, ${1 + (next() % rows)}, '${dig(10)}', '${dig(5)}')`);
    s.query(`INSERT INTO sbtest1 VALUES ${v.join(',')}`);
  }
  s.query('CREATE INDEX k_1 ON sbtest1 (k)');
  s.query('ANALYZE TABLE sbtest1');
  envs[name] = { db, s };
}
const cases = [
  [
    'text point',
    3000,
    (s) => {
      let i = 0;
      return () => s.query(`SELECT c FROM sbtest1 WHERE id=${1 + ((i++ * 7919) % rows)}`);
    },
  ],
  ['text SELECT 1', 5000, (s) => () => s.query('SELECT 1')],
  [
    'prepared point',
    50000,
    (s) => {
      const p = s.prepare('SELECT c FROM sbtest1 WHERE id=?');
      let i = 0;
      return () => p.run([1 + ((i++ * 7919) % rows)]);
    },
  ],
  [
    'prepared k ref',
    50000,
    (s) => {
      const p = s.prepare('SELECT id, c FROM sbtest1 WHERE k=?');
      let i = 0;
      return () => p.run([1 + ((i++ * 7919) % rows)]);
    },
  ],
  [
    'order range',
    500,
    (s) => {
      const p = s.prepare('SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c');
      let i = 0;
      return () => {
        const a = 1 + ((i++ * 7919) % (rows - 100));
        p.run([a, a + 99]);
      };
    },
  ],
  [
    'distinct range',
    500,
    (s) => {
      const p = s.prepare('SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c');
      let i = 0;
      return () => {
        const a = 1 + ((i++ * 7919) % (rows - 100));
        p.run([a, a + 99]);
      };
    },
  ],
];
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rounds = Number(process.env.ROUNDS ?? 7);
console.log(
  `load average at start ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')}`,
);
console.log('| statement | old µs | new µs | new ÷ old |');
console.log('|---|---:|---:|---:|');
for (const [name, n, mk] of cases) {
  const fs = { old: mk(envs.old.s), new: mk(envs.new.s) };
  const t = { old: [], new: [] };
  for (const b of ['old', 'new']) for (let i = 0; i < n; i++) fs[b]();
  for (let r = 0; r < rounds; r++)
    for (const b of r % 2 === 0 ? ['old', 'new'] : ['new', 'old']) {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) fs[b]();
      t[b].push(((performance.now() - t0) * 1000) / n);
    }
  const o = med(t.old),
    w = med(t.new);
  console.log(`| ${name} | ${o.toFixed(1)} | ${w.toFixed(1)} | ${(w / o).toFixed(2)} |`);
}
console.log(
  `load average at end ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')}`,
);
for (const e of Object.values(envs)) {
  e.s.close();
  e.db.close();
}
