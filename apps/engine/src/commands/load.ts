import { resolve } from 'node:path';
import {
  type ParsedArgs,
  parseArgs,
  positiveNumber,
  scaleFactor,
  stringOption,
  UsageError,
  noWords,
} from './cli-args.js';
import { type LoadProgress, loadTpch, sideFilePath, type TpchLoadResult } from '../load/tpch-load.js';
import { runJob } from './internal/job.js';
import type { JobProgress } from './internal/messages.js';
import { ProgressBars } from './internal/progress.js';
import { checkDatabaseTarget, checkTblDirectory } from './internal/target.js';
import { LOAD } from './usage.js';

/** What a load hands its worker. */
export interface LoadOptions {
  readonly db: string;
  readonly tbl?: string;
  readonly sf?: number;
  readonly poolBytes: number;
  readonly sortBytes: number;
  /** The run's private temp directory: generated `.tbl` files and sort runs go there. */
  readonly tmpdir: string;
  readonly quiet: boolean;
}

/** The load itself (in the worker): `loadTpch`, progress forwarded. */
export function runLoad(o: LoadOptions, progress: (p: JobProgress) => void): TpchLoadResult {
  return loadTpch({
    db: o.db,
    ...(o.tbl === undefined ? {} : { tbl: o.tbl }),
    ...(o.sf === undefined ? {} : { sf: o.sf }),
    innodb_buffer_pool_size: o.poolBytes,
    innodb_sort_buffer_size: o.sortBytes,
    tmpdir: o.tmpdir,
    onProgress: (p) => progress({ kind: 'load', progress: p }),
  });
}

/** The work of `tpch load` (in the worker). */
export function loadWork(
  o: LoadOptions,
  progress: (p: JobProgress) => void,
  out: (text: string) => void,
): void {
  const r = runLoad(o, progress);
  if (o.quiet) return;
  const rows = Object.entries(r.rows)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  out(`${rows}\nloaded ${r.db}: ${(r.bytes / 1e6).toFixed(1)} MB in ${r.seconds.toFixed(1)} s\n`);
}

/** Progress bars of a load: one line per table (rows, then each index built). */
export function loadBars(sf: number | undefined): {
  bars: ProgressBars;
  onProgress: (p: JobProgress) => void;
} {
  const bars = new ProgressBars(process.stderr, 8, 28);
  let current = '';
  const onProgress = (j: JobProgress): void => {
    if (j.kind !== 'load') return;
    const p: LoadProgress = j.progress;
    if (p.phase === 'generate') {
      bars.start('generate', 1, `SF ${sf ?? ''}`);
      return;
    }
    if (p.table !== current) {
      current = p.table;
      bars.start(p.table, p.expectedRows, 'rows');
    }
    if (p.phase === 'rows') bars.update(p.rows, 'rows');
    else if (p.phase === 'index') bars.update(p.rows, `index ${p.index}`);
    else bars.finish(p.rows, 'done');
  };
  return { bars, onProgress };
}

/** Megabytes option (`--buffer-pool-mb 256`) as bytes. */
function megabytes(args: ParsedArgs, name: string, command: string, fallback: number): number {
  return Math.round(positiveNumber(args, name, command, fallback) * 1024 * 1024);
}

/** `enginekit tpch load` */
export async function loadCommand(argv: readonly string[]): Promise<void> {
  const spec = LOAD.spec;
  const args = parseArgs(argv, spec);
  noWords(args, spec);
  const db = resolve(stringOption(args, 'db', spec.name));
  const hasSf = args.options.has('sf');
  if (hasSf === args.options.has('tbl'))
    throw new UsageError(`${spec.name}: give exactly one of --sf N or --tbl DIR`);
  const sf = hasSf ? scaleFactor(args, spec.name, 0.01) : undefined;
  const tblGiven = stringOption(args, 'tbl', spec.name, undefined);
  const tbl = tblGiven === undefined ? undefined : resolve(tblGiven);
  const quiet = args.options.has('quiet');
  const poolBytes = megabytes(args, 'buffer-pool-mb', spec.name, 128);
  const sortBytes = megabytes(args, 'sort-buffer-mb', spec.name, 4);
  // every check of target and input before any work
  checkDatabaseTarget(db, args.options.has('force'));
  if (tbl !== undefined) checkTblDirectory(tbl);

  const { bars, onProgress } = loadBars(sf);
  await runJob({
    kind: 'load',
    command: spec.name,
    options: (tmpdir): LoadOptions => ({
      db,
      ...(tbl === undefined ? {} : { tbl }),
      ...(sf === undefined ? {} : { sf }),
      poolBytes,
      sortBytes,
      tmpdir,
      quiet,
    }),
    // the side file and its lock file (left when the job's thread is stopped mid-load)
    partialFiles: [sideFilePath(db), `${sideFilePath(db)}.lock`],
    ...(quiet || !bars.enabled ? {} : { onProgress }),
    onEnd: () => bars.stop(),
  });
}
