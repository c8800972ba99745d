// @enginekit/join-algos over real structures: lineitem as btree-sampler trees in a cold
// buffer-pool over a simulated hdd (run from apps/engine after `pnpm build`).
//   node bench/join-io.js                                   SF 0.1, join_buffer_size 256K … 8M
//   JOIN_BENCH_IO_SF=0.1 JOIN_BENCH_SIZES=256,6144 node bench/join-io.js
import { runIoBound } from './join-io-runs.js';

await runIoBound(Number(process.env.JOIN_BENCH_IO_SF ?? 0.1));
