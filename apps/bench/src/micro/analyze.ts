import { join } from 'node:path';
import { median } from '../measure.js';
import { importEngine, runDir } from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';

const KINDS = [
  { label: 'persistent, A = 20 (5.6 default)', set: ['innodb_stats_persistent = ON'] },
  {
    label: 'transient, 8 dives, page_rnd (5.1 default)',
    set: ['innodb_stats_persistent = OFF', 'innodb_use_legacy_cardinality_algorithm = ON'],
  },
  {
    label: 'transient, 8 dives, LCG (the fix)',
    set: ['innodb_stats_persistent = OFF', 'innodb_use_legacy_cardinality_algorithm = OFF'],
  },
] as const;

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const sf = a.number('sf');
  const runs = a.number('runs');
  const { Database, Session, exactStatistics, loadTpch } = await importEngine();
  let path = a.text('db');
  let remove = (): void => {};
  if (path === undefined) {
    const d = runDir('analyze');
    remove = d.remove;
    path = join(d.dir, 'tpch.ekdb');
    const t = performance.now();
    loadTpch({ db: path, sf, innodb_buffer_pool_size: 128 << 20 });
    io.out(`SF ${sf} generated and loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const db = Database.open(path, { innodb_buffer_pool_size: 1024 << 20 });
  try {
    const s = new Session(db);
    const t = db.table('lineitem');
    const reads = (): number => db.pool.stats().Innodb_buffer_pool_read_requests;
    const analyzeOnce = (kind: (typeof KINDS)[number]) => {
      for (const v of kind.set) s.query(`SET GLOBAL ${v}`);
      const r0 = reads();
      const t0 = performance.now();
      s.query('ANALYZE TABLE lineitem');
      return { ms: performance.now() - t0, pages: reads() - r0, stats: db.statistics(t) };
    };
    const results = KINDS.map(() => ({
      ms: [] as number[],
      pages: [] as number[],
      nDiff: [] as Map<string, number | undefined>[],
    }));
    for (const k of KINDS) analyzeOnce(k);
    for (let r = 0; r < runs; r++)
      for (const [i, k] of KINDS.entries()) {
        const x = analyzeOnce(k);
        results[i]?.ms.push(x.ms);
        results[i]?.pages.push(x.pages);
        results[i]?.nDiff.push(new Map([...x.stats.indexes].map(([n, ix]) => [n, ix.nDiff[0]])));
      }
    const r0 = reads();
    const t0 = performance.now();
    const exact = exactStatistics(t);
    const exactMs = performance.now() - t0;
    const exactPages = reads() - r0;
    const trees = [t.primary, ...t.secondary];
    const indexes = trees.map((ix) => ix.name);
    const treePages = trees.reduce((acc, ix) => acc + ix.tree.shape().indexPages, 0);

    io.out(
      `lineitem at SF ${sf}: ${t.rows} rows, ${treePages} pages in its ${indexes.length} trees; ${runs} ANALYZE runs per kind, interleaved`,
    );
    io.out('');
    io.out("| kind | ms (median) | pages read | share of the trees' pages |");
    io.out('|---|---:|---:|---:|');
    const mean = (xs: readonly number[]): number => xs.reduce((x, y) => x + y, 0) / xs.length;
    for (const [i, k] of KINDS.entries()) {
      const res = results[i];
      if (res === undefined) continue;
      const p = mean(res.pages);
      io.out(
        `| ${k.label} | ${median(res.ms).toFixed(1)} | ${p.toFixed(0)} | ${((100 * p) / treePages).toFixed(1)} % |`,
      );
    }
    // exactStatistics walks every tree twice (its page counts, then its leaves)
    const share = ((100 * exactPages) / treePages).toFixed(1);
    io.out(`| exact (exactStatistics) | ${exactMs.toFixed(1)} | ${exactPages} | ${share} % |`);
    io.out('');
    io.out('n_diff of the leading column: exact, then min–max over the runs per kind');
    io.out('');
    io.out(`| index | exact | ${KINDS.map((k) => k.label).join(' | ')} |`);
    io.out(`|---|---:|${KINDS.map(() => '---:').join('|')}|`);
    for (const name of indexes) {
      const cells = results.map((r) => {
        const v = r.nDiff.map((m) => m.get(name) ?? Number.NaN);
        return `${Math.min(...v)}–${Math.max(...v)}`;
      });
      io.out(`| ${name} | ${exact.indexes.get(name)?.nDiff[0]} | ${cells.join(' | ')} |`);
    }
  } finally {
    db.close();
    remove();
  }
}

export const analyze: MicroBench = {
  name: 'analyze',
  title: 'ANALYZE TABLE lineitem under each statistics estimator: time, pages read, n_diff',
  about: `ANALYZE TABLE lineitem under each estimator the variables choose (5.6 persistent, 5.1
transient with page_rnd, transient with the LCG fix): one of each first (warm pool), then --runs
timed ones per kind, alternating kinds; the median time, the mean logical page reads
(Innodb_buffer_pool_read_requests) per ANALYZE, and each index's leading-column n_diff beside
the exact count. Generates and loads TPC-H --sf in a temp folder unless --db names a database.`,
  options: {
    sf: { kind: 'number', default: '0.1', about: 'TPC-H scale factor (without --db)' },
    runs: { kind: 'number', default: '5', about: 'timed ANALYZE runs per kind' },
    db: { kind: 'text', about: 'an existing TPC-H database file instead of a fresh one' },
  },
  run,
};
