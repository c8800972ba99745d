// In-memory orders ⋈ lineitem: each algorithm's output rows per second (benny, built package).
import { arrayRowFetcher } from '@enginekit/mrr';
import b from 'benny';
import {
  arrayIndex,
  arrayIndexReader,
  arraySource,
  batchedKeyAccessHashJoin,
  batchedKeyAccessJoin,
  blockNestedLoopHashJoin,
  blockNestedLoopJoin,
  graceHashJoin,
  hashJoin,
  indexAccessFromReader,
  indexNestedLoopJoin,
  sortMergeJoin,
  tupleCodec,
} from '../dist/index.js';
import { generate, Q3_DATE } from './data.js';

export async function runInMemory(sf) {
  const { lineitem, driving } = generate(sf);
  const ordersCodec = tupleCodec(['int32', 'int32', 'int32']);
  const lineCodec = tupleCodec(['int32', 'double', 'double', 'int32']);
  const key = (r) => r[0];
  const base = () => ({
    type: 'inner',
    outer: arraySource(driving),
    outerKey: key,
    innerKey: key,
    condition: (_o, l) => l[3] > Q3_DATE,
  });
  const JOIN_BUFFER = 262144; // MySQL 5.6's join_buffer_size default
  const index = arrayIndex(lineitem, key);
  const reader = arrayIndexReader(lineitem, key);
  const fetcher = arrayRowFetcher(lineitem);
  const bka = () => ({ ...base(), reader, fetcher, outerCodec: ordersCodec, join_buffer_size: JOIN_BUFFER });
  const cases = {
    'NLJ (hash index)': () => indexNestedLoopJoin({ ...base(), inner: index }, count),
    'NLJ (sorted index + fetch)': () =>
      indexNestedLoopJoin({ ...base(), inner: indexAccessFromReader(reader, fetcher) }, count),
    'BNL 256K': () =>
      blockNestedLoopJoin(
        { ...base(), inner: arraySource(lineitem), outerCodec: ordersCodec, join_buffer_size: JOIN_BUFFER },
        count,
      ),
    'BNLH 256K': () =>
      blockNestedLoopHashJoin(
        { ...base(), inner: arraySource(lineitem), outerCodec: ordersCodec, join_buffer_size: JOIN_BUFFER },
        count,
      ),
    'BKA 256K (rowid-ordered)': () => batchedKeyAccessJoin(bka(), count),
    'BKA 256K (key+rowid-ordered)': () => batchedKeyAccessJoin({ ...bka(), mrr_sort_keys: true }, count),
    'BKAH 256K': () => batchedKeyAccessHashJoin(bka(), count),
    'hash join': () => hashJoin({ ...base(), inner: arraySource(lineitem) }, count),
    'grace hash join (1 MiB budget, spills)': () =>
      graceHashJoin(
        {
          ...base(),
          inner: arraySource(lineitem),
          outerCodec: ordersCodec,
          innerCodec: lineCodec,
          memoryBudget: 1 << 20,
        },
        count,
      ),
    'sort-merge join': () => sortMergeJoin({ ...base(), inner: arraySource(lineitem) }, count),
  };
  // BNL compares every inner row with every buffered record: minutes per join at SF 0.1.
  if (driving.length * lineitem.length > 5e8 && process.env.JOIN_BENCH_BNL !== '1') {
    console.log('(BNL skipped at this size; JOIN_BENCH_BNL=1 runs it)');
    delete cases['BNL 256K'];
  }
  let out = 0;
  function count() {
    out++;
  }
  // One run each first: the output size and the counters.
  const info = {};
  for (const [name, run] of Object.entries(cases)) {
    out = 0;
    const stats = run();
    info[name] = { rows: out, stats };
  }
  const rows = info['hash join'].rows;
  for (const [name, i] of Object.entries(info)) {
    if (i.rows !== rows) throw new Error(`${name} produced ${i.rows} rows, hash join ${rows}`);
  }
  const results = [];
  await b.suite(
    `orders ⋈ lineitem in memory, SF ${sf}: ${driving.length} driving orders × ${lineitem.length} lineitems → ${rows} rows`,
    ...Object.entries(cases).map(([name, run]) => b.add(name, run)),
    b.cycle(),
    b.complete((summary) => {
      // benny rounds ops/s to an integer; the median sample time keeps the precision.
      for (const r of summary.results)
        results.push({ name: r.name, ops: 1 / r.details.median, ms: r.details.median * 1000 });
    }),
  );
  const hash = results.find((r) => r.name === 'hash join').ops;
  console.log(
    '\n| algorithm | median ms per join | output rows/s | speed vs hash join | inner scans | buffer fills | Handler_read_key | Handler_read_next | Handler_read_rnd | Handler_read_rnd_next | spills |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const s = info[r.name].stats;
    console.log(
      `| ${r.name} | ${r.ms.toFixed(1)} | ${Math.round(r.ops * rows).toLocaleString('en-US')} | ${(r.ops / hash).toFixed(2)}× | ${s.innerScans} | ${s.joinBufferFills} | ${s.Handler_read_key} | ${s.Handler_read_next} | ${s.Handler_read_rnd} | ${s.Handler_read_rnd_next} | ${s.spills} |`,
    );
  }
  return { driving: driving.length, lineitem: lineitem.length, rows, results };
}
