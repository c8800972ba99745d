// `node bench/index.js` (or `pnpm bench`) — needs the built package (`pnpm exec tsup`).
// Flags / env: --rows=N (BENCH_ROWS, default 300000), --repeat=N (BENCH_REPEAT, default 3),
// --only=sort,memory,micro (BENCH_ONLY: run only those sections), --skip-micro, --skip-memory.
// The index builds into real B+trees (and SQLite's CREATE INDEX) live in apps/engine/bench.
// Results are printed as tables and written to bench/results/latest.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flag } from './data.js';
import { memoryTable } from './memory.js';
import { microSuite } from './micro.js';
import { sortBufferTable } from './sort-buffer.js';

const rows = Number(flag('rows', '300000'));
const repeat = Number(flag('repeat', '3'));
const only = flag('only', '');
const want = (section) =>
  (only === '' || only.split(',').includes(section)) && flag(`skip-${section}`, 'false') === 'false';
const here = dirname(fileURLToPath(import.meta.url));
const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  loadavg: (await import('node:os')).loadavg(),
  rows,
};

console.log(
  `merge-sort-index bench: ${rows} rows, median of ${repeat}, node ${process.version}, ${cpus().length} cpus`,
);

if (want('sort')) {
  console.log('\n## Sort buffer size × merge mode');
  results.sortBuffer = sortBufferTable(rows, repeat);
  console.table(results.sortBuffer);
}

if (want('memory')) {
  console.log("\n## Memory: the sorter's account vs measured ArrayBuffer peak (1 MiB sort buffer)");
  results.memory = memoryTable([100_000, rows, 1_000_000]);
  console.table(results.memory);
}

if (want('micro')) {
  console.log('\n## In-memory sort (benny)');
  results.micro = await microSuite();
  console.table(results.micro);
}

mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(
  join(here, 'results', only === '' ? 'latest.json' : `latest-${only.replace(/,/g, '-')}.json`),
  `${JSON.stringify(results, null, 2)}\n`,
);
