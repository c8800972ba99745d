// In-memory MRR: the built package over its own SortedArrayIndex and an array of rows, so only
// the CPU cost of buffering and sorting shows (no pages, no device).
//   pnpm exec tsup && node bench/index.js          200k entries, 10k lookups
//   MRR_BENCH_ENTRIES=1000000 MRR_BENCH_LOOKUPS=100000 node bench/index.js
// Page reads over real B+trees in a buffer pool are measured by the bench app's mrr-q10 experiment.
import { runSuites } from './in-memory.js';

await runSuites(
  Number(process.env.MRR_BENCH_ENTRIES ?? 200000),
  Number(process.env.MRR_BENCH_LOOKUPS ?? 10000),
);
