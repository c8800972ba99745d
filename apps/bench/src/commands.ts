import { dirname, join } from 'node:path';
import { parseArgs, positiveNumber, UsageError } from './args.js';
import { collectBenches } from './collect.js';
import { PLANNED, EXPERIMENTS, findExperiment } from './registry.js';
import { loadResults, resultsIn } from './report/load.js';
import { renderReport } from './report/html.js';
import { appRoot, resultsDir, writeFileAtomic } from './results-dir.js';
import { runExperiment, saveResult } from './runner.js';
import type { ExperimentResult } from './result.js';
import { resultText } from './print-result.js';
import { outputWidth } from './text-wrap.js';
import { MicroArgs, type MicroBench, microHelp, optionNames } from './micro/micro.js';
import { findMicro, MICRO } from './micro/registry.js';

export const USAGE = `enginekit-bench: the posts' experiments on enginekit's packages

  enginekit-bench list
  enginekit-bench experiment <name> [--sf N] [--json FILE] [--quick] [--all] [--seed N]
  enginekit-bench report [RESULT.json ...] [--out FILE] [--all]
  enginekit-bench collect [PACKAGE ...] [--json FILE]
  enginekit-bench tour [--full]
  enginekit-bench micro [<name> [--help] [options]]

experiment  runs one experiment, prints its tables beside the post's figures, writes JSON
            (default: results/<name>-<time>.json in the app folder; --json FILE elsewhere)
report      turns results into one self-contained HTML page (default: the latest result of
            each experiment in the results folder, --all for every one; --out FILE, default
            results/report.html)
tour        TPC-H SF 0.01 generated and loaded, every experiment in turn (--quick unless
            --full), their tables, then the report of those runs and where it is
collect     runs every package's benny suite (pnpm run bench in each; build first) and writes
            their cases and tables with the machine info (default: results/collect/<time>.json)
micro       the engine's micro benchmarks (SQL against SQLite and DuckDB, sysbench, redo,
            MVCC, optimizer, before/after builds): Markdown tables on stdout, nothing saved;
            without a name, the list; <name> --help, its options
`;

type Out = (text: string) => void;

/** The options each command takes: those with a value, then the flags. */
const OPTIONS: Readonly<Record<string, readonly [readonly string[], readonly string[]]>> = {
  list: [[], []],
  experiment: [
    ['sf', 'json', 'seed'],
    ['quick', 'all'],
  ],
  report: [['out'], ['all']],
  collect: [['json'], []],
  tour: [[], ['full']],
};

/** `argv` (after the command's name) parsed against the command's options. */
export function commandArgs(command: string, argv: readonly string[]): ReturnType<typeof parseArgs> {
  const o = OPTIONS[command];
  if (o === undefined) throw new UsageError(`unknown command ${command}`);
  const parsed = parseArgs(argv, o[0], o[1]);
  if ((command === 'list' || command === 'tour') && parsed.positional.length > 0)
    throw new UsageError(`unexpected argument ${parsed.positional[0]}`);
  return parsed;
}

/** What `experiment` runs, from its arguments; a UsageError names the first mistake. */
export function experimentArgs(argv: readonly string[]): {
  experiment: NonNullable<ReturnType<typeof findExperiment>>;
  quick: boolean;
  all: boolean;
  sf: number | undefined;
  seed: number;
  json: string | undefined;
} {
  const { positional, flags } = commandArgs('experiment', argv);
  const [name, ...extra] = positional;
  if (name === undefined) throw new UsageError('experiment needs a name (enginekit-bench list shows them)');
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`);
  const experiment = findExperiment(name);
  if (experiment === undefined) {
    const why = PLANNED[name];
    if (why !== undefined) throw new UsageError(`${name} does not run yet: ${why}`);
    throw new UsageError(`unknown experiment ${name}; known: ${EXPERIMENTS.map((e) => e.name).join(', ')}`);
  }
  const sf = flags.has('sf') ? positiveNumber('sf', flags.get('sf') as string) : undefined;
  const seedText = flags.get('seed');
  const seed = typeof seedText === 'string' ? Number(seedText) : 20260101;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new UsageError(`--seed must be an integer in [0, 2^32), got ${String(seedText)}`);
  const json = flags.get('json');
  return {
    experiment,
    quick: flags.has('quick'),
    all: flags.has('all'),
    sf,
    seed,
    json: typeof json === 'string' ? json : undefined,
  };
}

/**
 * Checks a command line (after `enginekit-bench`) without running it: the command, its options
 * and, for `experiment`, the experiment and its values. Returns the command's name.
 */
export function checkCommandLine(argv: readonly string[]): string {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') return 'help';
  if (command === 'experiment') experimentArgs(rest);
  else if (command === 'micro') microArgs(rest);
  else commandArgs(command, rest);
  return command;
}

export function listCommand(out: Out): void {
  out('experiments:\n');
  for (const e of EXPERIMENTS)
    out(`  ${e.name.padEnd(12)} ${e.title}${e.options ? `  [${e.options}]` : ''}\n`);
  const planned = Object.entries(PLANNED);
  if (planned.length > 0) out('planned:\n');
  for (const [name, why] of planned) out(`  ${name.padEnd(12)} ${why}\n`);
}

export async function experimentCommand(
  argv: readonly string[],
  out: Out,
  log: Out,
  width: number = outputWidth(),
): Promise<string> {
  return (await runAndPrint(argv, out, log, width)).file;
}

/** `experiment`: runs it, prints its text at `width`, saves the JSON; the result and its file. */
export async function runAndPrint(
  argv: readonly string[],
  out: Out,
  log: Out,
  width: number,
): Promise<{ result: ExperimentResult; file: string }> {
  const a = experimentArgs(argv);
  const result = await runExperiment(a.experiment, {
    quick: a.quick,
    all: a.all,
    sf: a.sf,
    seed: a.seed,
    log: (l) => log(`${l}\n`),
  });
  out(resultText(result, width));
  const file = saveResult(result, a.json);
  out(`result: ${file}\n`);
  return { result, file };
}

export function reportCommand(argv: readonly string[], out: Out): string {
  const { positional, flags } = commandArgs('report', argv);
  const results =
    positional.length > 0 ? loadResults(positional) : resultsIn(resultsDir(), !flags.has('all'));
  if (results.length === 0)
    throw new UsageError(`no results to report: run an experiment first (results folder: ${resultsDir()})`);
  const outFlag = flags.get('out');
  const file = typeof outFlag === 'string' ? outFlag : join(resultsDir(), 'report.html');
  writeFileAtomic(file, renderReport(results));
  out(`report: ${file} (${results.length} result${results.length === 1 ? '' : 's'})\n`);
  return file;
}

export function collectCommand(argv: readonly string[], out: Out, log: Out): string {
  const { positional, flags } = commandArgs('collect', argv);
  const root = dirname(dirname(appRoot()));
  const result = collectBenches(root, positional, (l) => log(`${l}\n`));
  for (const p of result.packages) {
    out(
      `${p.name}: exit ${p.exitCode}, ${(p.durationMs / 1000).toFixed(1)} s, ${p.cases.length} benny cases, ${p.tables.length} tables\n`,
    );
  }
  const jsonFlag = flags.get('json');
  const file =
    typeof jsonFlag === 'string'
      ? jsonFlag
      : join(resultsDir(), 'collect', `${result.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileAtomic(file, `${JSON.stringify(result, null, 1)}\n`);
  out(`collected: ${file}\n`);
  if (result.packages.some((p) => p.exitCode !== 0)) process.exitCode = 1;
  return file;
}

/** What `micro` runs, from its arguments: the benchmark (none: the list), help or its options. */
export function microArgs(
  argv: readonly string[],
): { bench: undefined } | { bench: MicroBench; help: boolean; args: MicroArgs } {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'list') return { bench: undefined };
  const bench = findMicro(name);
  if (bench === undefined)
    throw new UsageError(`unknown micro benchmark ${name}; known: ${MICRO.map((b) => b.name).join(', ')}`);
  const [valued, flags] = optionNames(bench.options);
  const { positional, flags: given } = parseArgs(rest, valued, flags);
  if (positional.length > 0) throw new UsageError(`unexpected argument ${positional[0]}`);
  const help = given.delete('help');
  return { bench, help, args: new MicroArgs(bench.options, given) };
}

/** `micro`: the list, one benchmark's help, or its run (tables on `out`, progress on `log`). */
export async function microCommand(argv: readonly string[], out: Out, log: Out): Promise<void> {
  const m = microArgs(argv);
  if (m.bench === undefined) {
    out('micro benchmarks (enginekit-bench micro <name> --help shows the options):\n');
    for (const b of MICRO) out(`  ${b.name.padEnd(20)} ${b.title}\n`);
    return;
  }
  if (m.help) {
    out(microHelp(m.bench));
    return;
  }
  await m.bench.run(m.args, { out: (l) => out(`${l}\n`), log: (l) => log(`${l}\n`) });
}
