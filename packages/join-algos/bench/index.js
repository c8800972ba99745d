// `node bench/index.js` (the package's `bench` script). Imports the BUILT package: run
// `pnpm exec tsup` first. JOIN_BENCH_SF sets the TPC-H scale factor of the in-memory run
// (default 0.02: 30k orders × ~120k lineitems; 0.1 is the 150k × 600k);
// JOIN_BENCH_IO_SF the IO-bound run's (default 0.1); JOIN_BENCH_SIZES the join_buffer_size list in
// KiB (default 256,512,1024,2048,4096,8192); JOIN_BENCH=memory|io runs one part; JOIN_BENCH_BNL=1
// keeps BNL in large in-memory runs.
import { runInMemory } from './in-memory.js';

const which = process.env.JOIN_BENCH ?? 'all';
if (which === 'all' || which === 'memory') await runInMemory(Number(process.env.JOIN_BENCH_SF ?? 0.02));
if (which === 'all' || which === 'io') {
  const { runIoBound } = await import('./io-bound.js');
  await runIoBound(Number(process.env.JOIN_BENCH_IO_SF ?? 0.1));
}
