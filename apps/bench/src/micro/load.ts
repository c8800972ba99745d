import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { generateTpch, TPCH_TABLES } from '@enginekit/tpch';
import { median } from '../measure.js';
import { loadSqliteTpchScaled } from '../peers/sqlite-tpch.js';
import { importEngine, runDir } from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';

/** Wall and CPU seconds of `f`. */
function timed(f: () => void): { wall: number; cpu: number } {
  const t = performance.now();
  const c = process.cpuUsage();
  f();
  const u = process.cpuUsage(c);
  return { wall: (performance.now() - t) / 1000, cpu: (u.user + u.system) / 1e6 };
}

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const sf = a.number('sf');
  const runs = a.number('runs');
  const poolBytes = a.number('pool-mb') * 1024 * 1024;
  const { loadTpch } = await importEngine();
  const { dir, remove } = runDir('load');
  const tbl = join(dir, 'tbl');
  try {
    const g = timed(() => generateTpch({ sf, out: tbl }));
    const tblBytes = TPCH_TABLES.reduce((acc, t) => acc + statSync(join(tbl, `${t}.tbl`)).size, 0);
    io.out(`SF ${sf}: ${(tblBytes / 1e6).toFixed(1)} MB of .tbl generated in ${g.wall.toFixed(1)} s`);
    const ours: { wall: number; cpu: number }[] = [];
    const theirs: { wall: number; cpu: number }[] = [];
    let ourBytes = 0;
    let theirBytes = 0;
    for (let i = 0; i < runs; i++) {
      const ek = join(dir, 'tpch.ekdb');
      const sq = join(dir, 'tpch.sqlite');
      rmSync(ek, { force: true });
      rmSync(sq, { force: true });
      // alternate the order so neither always runs on a warmer (or more loaded) machine
      const runOurs = (): number =>
        ours.push(timed(() => loadTpch({ db: ek, tbl, innodb_buffer_pool_size: poolBytes })));
      const runTheirs = (): number => theirs.push(timed(() => loadSqliteTpchScaled(tbl, sq, poolBytes)));
      if (i % 2 === 0) {
        runOurs();
        runTheirs();
      } else {
        runTheirs();
        runOurs();
      }
      ourBytes = statSync(ek).size;
      theirBytes = statSync(sq).size;
    }
    const ow = median(ours.map((x) => x.wall));
    const oc = median(ours.map((x) => x.cpu));
    const tw = median(theirs.map((x) => x.wall));
    const tc = median(theirs.map((x) => x.cpu));
    io.out('');
    io.out(`TPC-H SF ${sf} with the DBT3 indexes, median of ${runs} run(s):`);
    io.out('');
    io.out('| engine | load wall s | load CPU s | file MB | × SQLite time | × SQLite size |');
    io.out('|---|---:|---:|---:|---:|---:|');
    io.out(
      `| enginekit (pool ${poolBytes >> 20} MiB) | ${ow.toFixed(2)} | ${oc.toFixed(2)} | ${(ourBytes / 1e6).toFixed(1)} | ${(ow / tw).toFixed(2)} | ${(ourBytes / theirBytes).toFixed(2)} |`,
    );
    io.out(
      `| SQLite (better-sqlite3, cache ${poolBytes >> 20} MiB) | ${tw.toFixed(2)} | ${tc.toFixed(2)} | ${(theirBytes / 1e6).toFixed(1)} | 1.00 | 1.00 |`,
    );
  } finally {
    remove();
  }
}

export const load: MicroBench = {
  name: 'load',
  title: 'loading TPC-H with the DBT3 indexes: enginekit vs SQLite from the same .tbl files',
  about: `Generates TPC-H at --sf and loads it into enginekit and, from the same .tbl files in the
same run, into SQLite (better-sqlite3: the same tables clustered by the primary key, WITHOUT
ROWID, the same secondary indexes built after the rows, one transaction, a page cache the size of
enginekit's pool). The two alternate first across --runs; median wall and CPU seconds, the
ratio, and the file sizes.`,
  options: {
    sf: { kind: 'number', default: '0.1', about: 'TPC-H scale factor' },
    runs: { kind: 'number', default: '1', about: 'loads of each' },
    'pool-mb': { kind: 'number', default: '128', about: "enginekit's pool and SQLite's page cache, MiB" },
  },
  run,
};
