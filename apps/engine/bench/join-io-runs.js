// IO-bound orders ⋈ lineitem through @enginekit/join-algos: physical reads and modeled HDD time, NLJ vs BNL(H) vs BKA vs BKAH,
// join_buffer_size 256 KiB … 8 MiB, on real structures: lineitem's clustered B+tree (PRIMARY KEY
// (l_orderkey, l_linenumber), ~128-byte rows) and its secondary index i_l_orderkey (key,
// primary key), both @enginekit/btree-sampler trees bulk-loaded into one tablespace (an .ibd),
// read through @enginekit/buffer-pool (midpoint LRU, linear read-ahead) over a
// SimulatedDevice('hdd'). The pool is 5% of the tablespace and cold for every run.
import { BufferPool, MemoryDevice, SimulatedDevice } from '@enginekit/buffer-pool';
import { BTree, KeyCodec } from '@enginekit/btree-sampler';
import {
  allocateJoinBuffers,
  arraySource,
  batchedKeyAccessHashJoin,
  batchedKeyAccessJoin,
  blockNestedLoopHashJoin,
  indexNestedLoopJoin,
  joinBufferNeeds,
  tupleCodec,
} from '@enginekit/join-algos';
import { generate, Q3_DATE } from './join-data.js';

const PAGE = 16384;
const SPACE = 1;
const ROW_BYTES = 112; // value bytes per lineitem row: a 4-byte row number + padding (DBT3's ~128-byte rows with the key)
const pkCodec = new KeyCodec([{ type: 'int32' }, { type: 'int32' }]);
const skCodec = new KeyCodec([{ type: 'int32' }]);

function buildTablespace(lineitem) {
  const mem = new MemoryDevice({ pageSize: PAGE });
  const loader = new BufferPool({ innodb_buffer_pool_size: 32 << 20, innodb_page_size: PAGE });
  loader.registerSpace(SPACE, mem);
  const primary = BTree.create(loader, { space: SPACE, unique: true, clustered: true });
  const bulk = primary.bulkLoader();
  const value = new Uint8Array(ROW_BYTES);
  const dv = new DataView(value.buffer);
  const pks = new Array(lineitem.length);
  let line = 0;
  for (let i = 0; i < lineitem.length; i++) {
    line = i > 0 && lineitem[i - 1][0] === lineitem[i][0] ? line + 1 : 1;
    const pk = pkCodec.encode([lineitem[i][0], line]);
    pks[i] = pk;
    dv.setUint32(0, i);
    bulk.add(pk, value);
  }
  const p = bulk.finish();
  const secondary = BTree.create(loader, { space: SPACE, unique: false });
  const sbulk = secondary.bulkLoader();
  for (let i = 0; i < lineitem.length; i++) sbulk.add(skCodec.encode([lineitem[i][0]]), pks[i]);
  const s = sbulk.finish();
  loader.flushAll();
  // Not closed: closing a pool closes its devices, and the memory device holds the tablespace.
  return {
    mem,
    primaryRoot: p.rootPage,
    secondaryRoot: s.rootPage,
    pages: mem.size(),
    pkLength: pks[0].length,
    heights: [p.height, s.height],
  };
}

export async function runIoBound(sf) {
  const { lineitem, driving } = generate(sf);
  const t0 = performance.now();
  const ts = buildTablespace(lineitem);
  const loadMs = performance.now() - t0;
  const poolPages = Math.max(64, Math.round(ts.pages * 0.05));
  const key = (r) => r[0];
  const ordersCodec = tupleCodec(['int32', 'int32', 'int32']);
  const condition = (_o, l) => l[3] > Q3_DATE;

  function coldPool() {
    const disk = new SimulatedDevice(ts.mem, 'hdd');
    const pool = new BufferPool({ innodb_buffer_pool_size: poolPages * PAGE, innodb_page_size: PAGE });
    pool.registerSpace(SPACE, disk);
    const primary = BTree.open(pool, { space: SPACE, rootPage: ts.primaryRoot });
    const secondary = BTree.open(pool, { space: SPACE, rootPage: ts.secondaryRoot });
    return { disk, pool, primary, secondary };
  }

  /** i_l_orderkey as an @enginekit/mrr IndexReader with byte row ids (the primary key). */
  function indexReader(secondary) {
    const c = secondary.cursor();
    let want = null;
    const same = (k) => {
      if (k.length !== want.length) return false;
      for (let i = 0; i < k.length; i++) if (k[i] !== want[i]) return false;
      return true;
    };
    return {
      rowIdKind: 'bytes',
      rowIdLength: ts.pkLength,
      recordsPerKey: 4,
      compareKeys: (a, b) => a - b,
      seek(range) {
        want = skCodec.encode([range.key]);
        return c.seek(want, 'eq');
      },
      next() {
        return c.next() && same(c.key());
      },
      copyRowId(target, offset) {
        target.set(c.value(), offset);
      },
    };
  }

  /** Primary-key lookups in the clustered tree (`rnd_pos`). */
  function fetcher(primary) {
    return {
      rndPos(pk) {
        const v = primary.get(pk);
        return lineitem[new DataView(v.buffer, v.byteOffset).getUint32(0)];
      },
    };
  }

  /** Without MRR: each index entry's row is fetched at once (what NLJ does through a secondary index). */
  function indexAccess(secondary, primary) {
    const reader = indexReader(secondary);
    const fetch = fetcher(primary);
    const pk = new Uint8Array(ts.pkLength);
    const row = () => {
      reader.copyRowId(pk, 0);
      return fetch.rndPos(pk);
    };
    return {
      readKey: (k) => (reader.seek({ key: k }) ? row() : undefined),
      nextSame: () => (reader.next() ? row() : undefined),
    };
  }

  /** A full scan of the clustered index (BNL's inner side). */
  function tableScan(primary) {
    const c = primary.cursor();
    let started = false;
    let ok = false;
    return {
      rewind() {
        started = false;
      },
      next() {
        ok = started ? ok && c.next() : c.first();
        started = true;
        if (!ok) return undefined;
        const v = c.value();
        return lineitem[new DataView(v.buffer, v.byteOffset).getUint32(0)];
      },
    };
  }

  function measure(name, size, run) {
    const env = coldPool();
    let rows = 0;
    const start = performance.now();
    const stats = run(env, () => rows++);
    const cpuMs = performance.now() - start;
    const s = env.pool.stats();
    const d = env.disk.stats();
    return {
      name,
      size,
      rows,
      reads: s.Innodb_pages_read,
      readAhead: s.Innodb_buffer_pool_read_ahead,
      requests: s.Innodb_buffer_pool_read_requests,
      positionings: d.positionings,
      modeledS: d.modeledMs / 1000,
      cpuMs,
      fills: stats.joinBufferFills,
      mrrInit: stats.Handler_mrr_init,
      rowidRefills: stats.Handler_mrr_rowid_refills,
    };
  }

  const base = () => ({
    type: 'inner',
    outer: arraySource(driving),
    outerKey: key,
    innerKey: key,
    condition,
  });
  const out = [
    measure('NLJ', 0, (e, emit) =>
      indexNestedLoopJoin({ ...base(), inner: indexAccess(e.secondary, e.primary) }, emit),
    ),
  ];
  const KiB = 1024;
  const sizes = (process.env.JOIN_BENCH_SIZES ?? '256,512,1024,2048,4096,8192')
    .split(',')
    .map((k) => Number(k) * KiB);
  for (const size of sizes) {
    const buffered = () => ({ ...base(), outerCodec: ordersCodec, join_buffer_size: size });
    // What MariaDB 10.0 grants this one buffer under join_buffer_space_limit's 2M default
    // (optimize_join_buffer_size off): the whole join_buffer_size, or no buffer at all.
    const granted = (algorithm, e) =>
      allocateJoinBuffers(
        [
          joinBufferNeeds({
            outerCodec: ordersCodec,
            type: 'inner',
            algorithm,
            reader: indexReader(e.secondary),
          }),
        ],
        { join_buffer_size: size },
      )[0];
    out.push({
      ...measure('BNL (BNLH)', size, (e, emit) =>
        blockNestedLoopHashJoin({ ...buffered(), inner: tableScan(e.primary) }, emit),
      ),
      granted: granted('BNLH', coldPool()),
    });
    const mrr = (e) => ({
      ...buffered(),
      reader: indexReader(e.secondary),
      fetcher: fetcher(e.primary),
      mrr_sort_keys: true,
    });
    out.push({
      ...measure('BKA', size, (e, emit) => batchedKeyAccessJoin(mrr(e), emit)),
      granted: granted('BKA', coldPool()),
    });
    out.push({
      ...measure('BKAH', size, (e, emit) => batchedKeyAccessHashJoin(mrr(e), emit)),
      granted: granted('BKAH', coldPool()),
    });
  }
  const nlj = out[0];
  for (const r of out)
    if (r.rows !== nlj.rows) throw new Error(`${r.name} @${r.size}: ${r.rows} rows, NLJ ${nlj.rows}`);
  console.log(
    `\nIO-bound, SF ${sf}: ${driving.length} driving orders × ${lineitem.length} lineitems → ${nlj.rows} rows; ` +
      `tablespace ${ts.pages} pages of 16 KiB (tree heights ${ts.heights.join(', ')}; loaded in ${(loadMs / 1000).toFixed(1)} s), ` +
      `pool ${poolPages} pages (5%), hdd (10 ms seek, 5400 rpm, 100 MB/s), cold\n`,
  );
  console.log(
    '| algorithm | join_buffer_size | under the 2M join_buffer_space_limit | buffer fills | Handler_mrr_init | Handler_mrr_rowid_refills | pages read | of which read-ahead | read requests | disk positionings | modeled disk s | reads vs NLJ | CPU ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of out) {
    const limit = r.granted === undefined ? '—' : r.granted === 0 ? 'no buffer: runs as NLJ' : 'fits';
    console.log(
      `| ${r.name} | ${r.size === 0 ? '—' : `${r.size / KiB} KiB`} | ${limit} | ${r.fills} | ${r.mrrInit} | ${r.rowidRefills} | ${r.reads} | ${r.readAhead} | ${r.requests} | ${r.positionings} | ${r.modeledS.toFixed(1)} | ${(nlj.reads / r.reads).toFixed(2)}× fewer | ${r.cpuMs.toFixed(0)} |`,
    );
  }
  return out;
}
