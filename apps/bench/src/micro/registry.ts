import { analyze } from './analyze.js';
import { indexReads } from './index-reads.js';
import { load } from './load.js';
import type { MicroBench } from './micro.js';
import { mvccReads } from './mvcc-reads.js';
import { optimizer } from './optimizer.js';
import { optimizerAb } from './optimizer-ab.js';
import { orderByIndex } from './order-by-index.js';
import { redo } from './redo.js';
import { scan } from './scan.js';
import { serverPointSelect } from './server-point-select.js';
import { sqlPoint } from './sql-point.js';
import { sqlRanges } from './sql-ranges.js';
import { sqlStatementsAb } from './sql-statements-ab.js';
import { sqlTpch } from './sql-tpch.js';
import { sysbenchGrid } from './sysbench.js';
import { textInsert } from './text-insert.js';
import { textPointProfile } from './text-point-profile.js';
import { txnLocks } from './txn-locks.js';

/**
 * Every micro benchmark of the engine, `enginekit-bench micro <name>`. A new one is a file under
 * `src/micro/` exporting a {@link MicroBench}, plus one line here.
 */
export const MICRO: readonly MicroBench[] = [
  sqlPoint,
  sqlRanges,
  sqlTpch,
  sqlStatementsAb,
  sysbenchGrid,
  serverPointSelect,
  redo,
  mvccReads,
  txnLocks,
  load,
  scan,
  analyze,
  optimizer,
  optimizerAb,
  indexReads,
  orderByIndex,
  textInsert,
  textPointProfile,
];

/** The micro benchmark called `name`, or undefined. */
export function findMicro(name: string): MicroBench | undefined {
  return MICRO.find((b) => b.name === name);
}
