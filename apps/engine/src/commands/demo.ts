import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expectOnly, parseArgs, positiveNumber, UsageError } from '../cli-args.js';
import { Database } from '../storage/database.js';
import { generateTpch } from '@enginekit/tpch';
import { formatInfo } from './info.js';
import { runLoad } from './load.js';

/**
 * `enginekit demo [--sf 0.01] [--dir DIR] [--quiet]`: generate TPC-H `.tbl` files, load them with
 * the DBT3 indexes into a database file, print what `info` prints. Without `--dir` everything
 * lives in a temp directory removed at the end.
 */
export function demoCommand(argv: readonly string[]): void {
  const args = parseArgs(argv, new Set(['quiet']));
  expectOnly(args, ['sf', 'dir', 'quiet'], 'demo');
  if (args.words.length > 0) throw new UsageError(`demo: unexpected argument '${args.words[0]}'`);
  const sf = positiveNumber(args, 'sf', 'demo', 0.01);
  if (sf >= 1 && !Number.isInteger(sf))
    throw new UsageError(`demo: --sf above 1 must be an integer, got '${sf}'`);
  const given = args.options.get('dir');
  if (given === true) throw new UsageError('demo: --dir needs a value');
  const dir = given === undefined ? mkdtempSync(join(tmpdir(), 'enginekit-demo-')) : resolve(given);
  const quiet = args.options.has('quiet') || !process.stderr.isTTY;
  try {
    mkdirSync(dir, { recursive: true });
    const tbl = join(dir, 'tbl');
    const dbPath = join(dir, `tpch-sf${sf}.ekdb`);
    rmSync(dbPath, { force: true });
    let t = performance.now();
    const gen = generateTpch({ sf, out: tbl });
    const genSeconds = (performance.now() - t) / 1000;
    const tblBytes = gen.files.reduce((a, f) => a + f.bytes, 0);
    process.stdout.write(
      `generated TPC-H SF ${sf}: ${(tblBytes / 1e6).toFixed(1)} MB of .tbl in ${genSeconds.toFixed(1)} s (${tbl})\n`,
    );
    t = performance.now();
    const r = runLoad({ db: dbPath, tbl, poolBytes: 128 << 20, sortBytes: 4 << 20 }, quiet);
    process.stdout.write(
      `loaded with the DBT3 indexes: ${(r.bytes / 1e6).toFixed(1)} MB in ${r.seconds.toFixed(1)} s\n\n`,
    );
    const db = Database.open(dbPath);
    try {
      process.stdout.write(formatInfo(db));
      const s = db.status();
      process.stdout.write(
        `\nInnodb_buffer_pool_read_requests ${s.Innodb_buffer_pool_read_requests}, Innodb_buffer_pool_reads ${s.Innodb_buffer_pool_reads}\n`,
      );
    } finally {
      db.close();
    }
    if (given === undefined) process.stdout.write('(temp files removed; pass --dir DIR to keep them)\n');
  } finally {
    if (given === undefined) rmSync(dir, { recursive: true, force: true });
  }
}
