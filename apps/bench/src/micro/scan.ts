import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { median } from '../measure.js';
import { importEngine, runDir } from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 50)); // the GC observer reports

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const sf = a.number('sf');
  const runs = a.number('runs');
  const poolBytes = a.number('pool-mb') * 1024 * 1024;
  const { Database, loadTpch, TableHandler } = await importEngine();
  let gcs = 0;
  const observer = new PerformanceObserver((l) => {
    gcs += l.getEntries().length;
  });
  observer.observe({ entryTypes: ['gc'] });
  let path = a.text('db');
  let remove = (): void => {};
  if (path === undefined) {
    const d = runDir('scan');
    remove = d.remove;
    path = join(d.dir, 'tpch.ekdb');
    const t = performance.now();
    loadTpch({ db: path, sf, innodb_buffer_pool_size: 128 << 20 });
    io.out(`SF ${sf} generated and loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const db = Database.open(path, { innodb_buffer_pool_size: poolBytes });
  try {
    const t = db.table('lineitem');
    const h = new TableHandler(t);
    const quantity = t.columnIndex('l_quantity');
    const comment = t.columnIndex('l_comment');
    const scan = (): { n: number; check: string } => {
      let sum = 0;
      let bytes = 0;
      const n = h.rndScan((row) => {
        sum += row.nums[quantity] as number;
        bytes += row.len[comment] as number;
        return true;
      });
      return { n, check: `${sum}/${bytes}` };
    };
    // the same scan reading l_quantity only (`RowBuffer.wantOnly`), as a query reading one
    // column does: the codec starts at the first wanted column and decodes nothing else
    const narrowMask = new Uint8Array(t.columns.length);
    narrowMask[quantity] = 1;
    const narrow = (): { n: number; check: string } => {
      let sum = 0;
      const n = h.rndScan((row) => {
        if (row.want !== narrowMask) row.wantOnly(narrowMask);
        sum += row.nums[quantity] as number;
        return true;
      });
      return { n, check: String(sum) };
    };
    // 100 ship dates from 1993-01-01 (day 8401): ~250 rows each at SF 0.1, each row an
    // i_l_shipdate entry and then its clustered record by primary key
    const lookup = (): { n: number; check: string } => {
      let n = 0;
      let bytes = 0;
      for (let d = 8401; d < 8501; d++)
        h.lookup('i_l_shipdate', [d], (row) => {
          n++;
          bytes += row.len[comment] as number;
          return true;
        });
      return { n, check: String(bytes) };
    };
    const measure = async (name: string, f: () => { n: number; check: string }): Promise<string> => {
      f();
      await settle();
      const g0 = gcs;
      const ms: number[] = [];
      let last = { n: 0, check: '' };
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        last = f();
        ms.push(performance.now() - t0);
      }
      await settle();
      const m = median(ms);
      io.out(`| ${name} | ${last.n} | ${m.toFixed(1)} | ${((m * 1e6) / last.n).toFixed(0)} | ${gcs - g0} |`);
      return last.check;
    };
    io.out('');
    io.out(`lineitem of ${path}, median of ${runs} passes:`);
    io.out('');
    io.out('| pass | rows | ms | ns/row | GCs in all passes |');
    io.out('|---|---:|---:|---:|---:|');
    const c1 = await measure('full scan (`rndScan`)', scan);
    const c3 = await measure('full scan reading `l_quantity` only', narrow);
    const c2 = await measure('`lookup(i_l_shipdate, [day])` × 100 days', lookup);
    io.out('');
    io.out(`checksums: ${c1} ${c3} ${c2}`);
  } finally {
    observer.disconnect();
    db.close();
    remove();
  }
}

export const scan: MicroBench = {
  name: 'scan',
  title: 'full scans of lineitem and secondary-index lookups, in-process, warm',
  about: `A full scan of lineitem (every column, then l_quantity only) and 100 i_l_shipdate lookups
with their clustered records, through TableHandler. The pool holds the database, so the figures
are CPU (decode + tree walk); one warm-up pass of each first; GCs counted over the timed passes.
Generates and loads TPC-H --sf in a temp folder unless --db names a database.`,
  options: {
    sf: { kind: 'number', default: '0.1', about: 'TPC-H scale factor (without --db)' },
    runs: { kind: 'number', default: '7', about: 'timed passes' },
    'pool-mb': { kind: 'number', default: '1024', about: 'innodb_buffer_pool_size, MiB' },
    db: { kind: 'text', about: 'an existing TPC-H database file instead of a fresh one' },
  },
  run,
};
