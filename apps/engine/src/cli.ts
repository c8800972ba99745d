#!/usr/bin/env node
import { basename, resolve } from 'node:path';
import { SingleBar } from 'cli-progress';
import {
  expectOnly,
  parseArgs,
  positiveInteger,
  positiveNumber,
  requireString,
  UsageError,
} from './cli-args.js';
import { generateTpch, type TpchStep } from './tpch/generate.js';
import { demoCommand } from './commands/demo.js';
import { infoCommand } from './commands/info.js';
import { tpchLoadCommand } from './commands/load.js';
import { sqlCommand } from './sql-cli/sql-command.js';

const USAGE = `usage:
  enginekit tpch gen --sf N --out DIR [--chunks C --step S] [--quiet]
      write dbgen-identical region.tbl … lineitem.tbl for scale factor N (default 0.01);
      with --chunks, only part S of C of each scaled table, as <table>.tbl.S (dbgen -C/-S)
  enginekit tpch load --db FILE (--sf N | --tbl DIR) [--buffer-pool-mb 128] [--sort-buffer-mb 4] [--quiet]
      create the DBT3 schema and indexes in FILE and load the .tbl files (or generate SF N first);
      all or nothing: FILE is replaced only when the whole load succeeded
  enginekit info --db FILE [--exact]
      tables, row counts, and per index: pages, bytes, height (from ANALYZE's stats; --exact walks the trees)
  enginekit demo [--sf 0.01] [--dir DIR] [--quiet]
      generate SF 0.01, load it into a database file, print info
  enginekit sql --db FILE [-e "SQL"] [--format table|tsv|json]
      run SQL statements (-e) or read them interactively; FILE is created if missing
  enginekit --help`;

const STEP_LABEL: Record<TpchStep, string> = {
  text: 'text pool',
  region: 'region',
  nation: 'nation',
  supplier: 'supplier',
  customer: 'customer',
  part: 'part+partsupp',
  orders: 'orders+lineitem',
};

function tpchGen(argv: readonly string[]): void {
  const args = parseArgs(argv, new Set(['quiet']));
  expectOnly(args, ['sf', 'out', 'quiet', 'chunks', 'step'], 'tpch gen');
  if (args.words.length > 0) throw new UsageError(`tpch gen: unexpected argument '${args.words[0]}'`);
  const sf = positiveNumber(args, 'sf', 'tpch gen', 0.01);
  if (sf >= 1 && !Number.isInteger(sf)) {
    throw new UsageError(`tpch gen: --sf above 1 must be an integer, got '${sf}'`);
  }
  const out = resolve(requireString(args, 'out', 'tpch gen'));
  const chunks = positiveInteger(args, 'chunks', 'tpch gen', 1);
  const part = positiveInteger(args, 'step', 'tpch gen', 1);
  if (part > chunks) throw new UsageError(`tpch gen: --step ${part} is beyond --chunks ${chunks}`);
  const quiet = args.options.has('quiet') || !process.stderr.isTTY;

  let bar: SingleBar | undefined;
  let step: TpchStep | undefined;
  let value = 0;
  const started = performance.now();
  const result = generateTpch({
    sf,
    out,
    chunks,
    step: part,
    ...(quiet
      ? {}
      : {
          onProgress: (s: TpchStep, done: number, total: number): void => {
            if (s !== step) {
              bar?.stop();
              step = s;
              value = 0;
              bar = new SingleBar({
                format: `${STEP_LABEL[s].padEnd(16)} [{bar}] {percentage}% | {value}/{total} | {duration}s`,
                hideCursor: true,
                stream: process.stderr,
              });
              bar.start(total, 0);
            }
            value += done;
            bar!.update(Math.min(value, total));
          },
        }),
  });
  bar?.stop();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (!args.options.has('quiet')) {
    const bytes = result.files.reduce((a, f) => a + f.bytes, 0);
    process.stdout.write(
      `${result.files.map((f) => `${basename(f.path)} ${f.rows} rows`).join(', ')}\n` +
        `SF ${sf}: ${(bytes / 1e6).toFixed(1)} MB in ${out} (${seconds} s)\n`,
    );
  }
}

function main(argv: readonly string[]): void {
  const [command, sub, ...rest] = argv;
  if (command === undefined || command === '--help' || command === 'help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command === 'tpch') {
    if (sub === 'gen') {
      tpchGen(rest);
      return;
    }
    if (sub === 'load') {
      tpchLoadCommand(rest);
      return;
    }
    throw new UsageError(
      sub === undefined ? 'tpch needs a subcommand: gen' : `unknown tpch subcommand '${sub}'`,
    );
  }
  if (command === 'info') {
    infoCommand([sub, ...rest].filter((x): x is string => x !== undefined));
    return;
  }
  if (command === 'sql') {
    sqlCommand([sub, ...rest].filter((x): x is string => x !== undefined));
    return;
  }
  if (command === 'demo') {
    demoCommand([sub, ...rest].filter((x): x is string => x !== undefined));
    return;
  }
  throw new UsageError(`unknown command '${command}'`);
}

try {
  main(process.argv.slice(2));
} catch (e) {
  if (e instanceof UsageError || e instanceof RangeError || e instanceof TypeError) {
    process.stderr.write(`enginekit: ${e.message}\n${e instanceof UsageError ? `${USAGE}\n` : ''}`);
    process.exit(2);
  }
  throw e;
}
