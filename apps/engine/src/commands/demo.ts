import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateTpch, TPCH_TABLES } from '@enginekit/tpch';
import { noWords, parseArgs, scaleFactor, stringOption } from './cli-args.js';
import { sideFilePath } from '../load/tpch-load.js';
import { Database } from '../storage/database.js';
import { formatInfo } from './info.js';
import { runJob } from './internal/job.js';
import type { JobProgress } from './internal/messages.js';
import { checkOutputDirectory, isDatabaseFile } from './internal/target.js';
import { TargetError } from './internal/failure.js';
import { loadBars, runLoad } from './load.js';
import { DEMO } from './usage.js';

/** What `demo` hands its worker. */
export interface DemoOptions {
  readonly sf: number;
  /** Where tbl/ and the database go: `--dir`, or a directory inside the run's temp directory. */
  readonly dir: string;
  readonly keep: boolean;
  readonly tmpdir: string;
  readonly quiet: boolean;
}

const dbName = (sf: number): string => `tpch-sf${sf}.ekdb`;

/** The work of `demo` (in the worker): generate, load, describe. */
export function demoWork(
  o: DemoOptions,
  progress: (p: JobProgress) => void,
  out: (text: string) => void,
): void {
  mkdirSync(o.dir, { recursive: true });
  const tbl = join(o.dir, 'tbl');
  const dbPath = join(o.dir, dbName(o.sf));
  rmSync(dbPath, { force: true });
  let t = performance.now();
  const gen = generateTpch({ sf: o.sf, out: tbl });
  const tblBytes = gen.files.reduce((a, f) => a + f.bytes, 0);
  out(
    `generated TPC-H SF ${o.sf}: ${(tblBytes / 1e6).toFixed(1)} MB of .tbl in ${((performance.now() - t) / 1000).toFixed(1)} s${o.keep ? ` (${tbl})` : ''}\n`,
  );
  t = performance.now();
  const r = runLoad(
    { db: dbPath, tbl, poolBytes: 128 << 20, sortBytes: 4 << 20, tmpdir: o.tmpdir, quiet: o.quiet },
    progress,
  );
  out(`loaded with the DBT3 indexes: ${(r.bytes / 1e6).toFixed(1)} MB in ${r.seconds.toFixed(1)} s\n\n`);
  const db = Database.open(dbPath);
  try {
    out(formatInfo(db));
    const s = db.status();
    out(
      `\nInnodb_buffer_pool_read_requests ${s.Innodb_buffer_pool_read_requests}, Innodb_buffer_pool_reads ${s.Innodb_buffer_pool_reads}\n`,
    );
  } finally {
    db.close();
  }
  if (!o.keep) out('(temp files removed; pass --dir DIR to keep them)\n');
}

/** `enginekit demo [--sf 0.01] [--dir DIR] [--quiet]` */
export async function demoCommand(argv: readonly string[]): Promise<void> {
  const spec = DEMO.spec;
  const args = parseArgs(argv, spec);
  noWords(args, spec);
  const sf = scaleFactor(args, spec.name, 0.01);
  const given = stringOption(args, 'dir', spec.name, undefined);
  const dir = given === undefined ? undefined : resolve(given);
  const quiet = args.options.has('quiet');
  const partialFiles: string[] = [];
  if (dir !== undefined) {
    checkOutputDirectory(dir);
    const db = join(dir, dbName(sf));
    if (existsSync(db) && !isDatabaseFile(db))
      throw new TargetError(`${db} exists and is not an enginekit database; not replacing it`);
    partialFiles.push(sideFilePath(db), ...TPCH_TABLES.map((t) => join(dir, 'tbl', `${t}.tbl`)));
  }
  const { bars, onProgress } = loadBars(sf);
  await runJob({
    kind: 'demo',
    command: spec.name,
    options: (tmpdir): DemoOptions => ({
      sf,
      dir: dir ?? join(tmpdir, 'demo'),
      keep: dir !== undefined,
      tmpdir,
      quiet,
    }),
    partialFiles,
    ...(quiet || !bars.enabled ? {} : { onProgress }),
    onEnd: () => bars.stop(),
  });
}
