// `node bench/index.js` (the package's `bench` script). Imports the BUILT package: run
// `pnpm exec tsup` first. JOIN_BENCH_SF sets the TPC-H scale factor (default 0.02: 30k orders ×
// ~120k lineitems; 0.1 is 150k × 600k); JOIN_BENCH_BNL=1 keeps BNL in large runs.
// Page reads over real B+trees in a buffer pool are measured by the bench app's bka-q3 experiment.
import { runInMemory } from './in-memory.js';

await runInMemory(Number(process.env.JOIN_BENCH_SF ?? 0.02));
