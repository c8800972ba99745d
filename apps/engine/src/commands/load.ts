import { resolve } from 'node:path';
import { CorruptionError as PoolCorruptionError } from '@enginekit/buffer-pool';
import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import { expectOnly, parseArgs, positiveNumber, requireString, UsageError } from '../cli-args.js';
import { type LoadProgress, loadTpch, type TpchLoadResult } from '../load/tpch-load.js';
import { DuplicateEntryError, FormatVersionError, NotADatabaseError } from '../storage/errors.js';
import { TblFormatError } from '@enginekit/tpch';

/** Errors that are the input's fault: printed as one line, exit status 1. */
export function isUserError(e: unknown): e is Error {
  return (
    e instanceof TblFormatError ||
    e instanceof DuplicateEntryError ||
    e instanceof NotADatabaseError ||
    e instanceof FormatVersionError ||
    e instanceof PoolCorruptionError ||
    (e instanceof Error && e.name === 'CorruptionError') ||
    (e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string') // ENOENT, EACCES, ENOSPC…
  );
}

/** Megabytes option (`--buffer-pool-mb 256`) as bytes. */
function megabytes(
  args: ReturnType<typeof parseArgs>,
  name: string,
  command: string,
  fallback: number,
): number {
  return Math.round(positiveNumber(args, name, command, fallback) * 1024 * 1024);
}

/** Run a TPC-H load with progress bars on a terminal. */
export function runLoad(
  options: { db: string; tbl?: string; sf?: number; poolBytes: number; sortBytes: number },
  quiet: boolean,
): TpchLoadResult {
  let bars: MultiBar | undefined;
  let bar: SingleBar | undefined;
  let current = '';
  const onProgress = quiet
    ? undefined
    : (p: LoadProgress): void => {
        bars ??= new MultiBar(
          {
            format: '{table} [{bar}] {percentage}% | {value}/{total} rows | {phase}',
            hideCursor: true,
            stream: process.stderr,
            clearOnComplete: false,
          },
          Presets.shades_classic,
        );
        if (p.phase === 'generate') {
          process.stderr.write(`generating SF ${options.sf} …\n`);
          return;
        }
        if (p.table !== current) {
          bar?.stop();
          current = p.table;
          bar = bars.create(Math.max(p.expectedRows, 1), 0, { table: p.table.padEnd(8), phase: 'rows' });
        }
        if (p.phase === 'rows') bar!.update(Math.min(p.rows, bar!.getTotal()), { phase: 'rows' });
        else if (p.phase === 'index') bar!.update({ phase: `index ${p.index}` });
        else {
          bar!.setTotal(Math.max(p.rows, 1));
          bar!.update(p.rows, { phase: 'done' });
        }
      };
  try {
    return loadTpch({
      db: options.db,
      ...(options.tbl === undefined ? {} : { tbl: options.tbl }),
      ...(options.sf === undefined ? {} : { sf: options.sf }),
      innodb_buffer_pool_size: options.poolBytes,
      innodb_sort_buffer_size: options.sortBytes,
      ...(onProgress === undefined ? {} : { onProgress }),
    });
  } finally {
    bars?.stop();
  }
}

/** `enginekit tpch load --db FILE (--sf N | --tbl DIR) [--buffer-pool-mb N] [--sort-buffer-mb N] [--quiet]` */
export function tpchLoadCommand(argv: readonly string[]): void {
  const args = parseArgs(argv, new Set(['quiet']));
  expectOnly(args, ['db', 'sf', 'tbl', 'quiet', 'buffer-pool-mb', 'sort-buffer-mb'], 'tpch load');
  if (args.words.length > 0) throw new UsageError(`tpch load: unexpected argument '${args.words[0]}'`);
  const db = resolve(requireString(args, 'db', 'tpch load'));
  const hasSf = args.options.has('sf');
  const hasTbl = args.options.has('tbl');
  if (hasSf === hasTbl) throw new UsageError('tpch load: give exactly one of --sf N or --tbl DIR');
  const sf = hasSf ? positiveNumber(args, 'sf', 'tpch load', 0.01) : undefined;
  if (sf !== undefined && sf >= 1 && !Number.isInteger(sf))
    throw new UsageError(`tpch load: --sf above 1 must be an integer, got '${sf}'`);
  const tbl = hasTbl ? resolve(requireString(args, 'tbl', 'tpch load')) : undefined;
  const quietFlag = args.options.has('quiet');
  const quiet = quietFlag || !process.stderr.isTTY;
  const poolBytes = megabytes(args, 'buffer-pool-mb', 'tpch load', 128);
  const sortBytes = megabytes(args, 'sort-buffer-mb', 'tpch load', 4);
  try {
    const r = runLoad(
      {
        db,
        ...(tbl === undefined ? {} : { tbl }),
        ...(sf === undefined ? {} : { sf }),
        poolBytes,
        sortBytes,
      },
      quiet,
    );
    if (!quietFlag) {
      const rows = Object.entries(r.rows)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ');
      process.stdout.write(
        `${rows}\nloaded ${r.db}: ${(r.bytes / 1e6).toFixed(1)} MB in ${r.seconds.toFixed(1)} s\n`,
      );
    }
  } catch (e) {
    if (!isUserError(e)) throw e;
    process.stderr.write(`enginekit: tpch load: ${e.message}\n`);
    process.exitCode = 1;
  }
}
