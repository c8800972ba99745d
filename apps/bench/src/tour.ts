import { commandArgs, reportCommand, runAndPrint } from './commands.js';
import { TpchFiles } from './internal/tpch-files.js';
import { verdictLine, verdictSummary } from './print-result.js';
import { EXPERIMENTS } from './registry.js';
import type { ExperimentResult } from './result.js';
import { outputWidth, wrapText } from './text-wrap.js';

type Out = (text: string) => void;

export interface TourOptions {
  /** Progress lines (to `log`); default: when stdout is a terminal and CI is not set. */
  readonly progress?: boolean;
  /** Line width of everything printed; default: the terminal's columns, 100 when not a terminal. */
  readonly width?: number;
}

/** `1 min 05 s` for longer spans, `42 s` for shorter. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/**
 * `enginekit-bench tour` (what `pnpm start` runs): TPC-H SF 0.01 generated and loaded once, every
 * experiment in turn (`--quick` unless `--full`) with its tables fitted to the width, a closing
 * summary of each experiment's verdicts, and the report of exactly these runs. On a terminal,
 * progress lines say what is running and how long it took.
 */
export async function tourCommand(
  argv: readonly string[],
  out: Out,
  log: Out,
  options: TourOptions = {},
): Promise<string> {
  const { flags } = commandArgs('tour', argv);
  const width = options.width ?? outputWidth();
  const progress = options.progress ?? (process.stdout.isTTY === true && !process.env.CI);
  const t0 = performance.now();
  const step = (text: string): void => {
    if (!progress) return;
    const stamp = `[${duration(performance.now() - t0).padStart(10)}] `;
    for (const line of wrapText(text, width - stamp.length, '  ')) log(`${stamp}${line}\n`);
  };
  if (!flags.has('full')) {
    step('generating TPC-H SF 0.01 and loading it into enginekit (shared by the SQL experiments)');
    const files = TpchFiles.shared(0.01, (l) => step(l));
    out(
      `TPC-H SF 0.01: generated in ${(files.generateMs / 1000).toFixed(1)} s, loaded in ${(files.loadMs / 1000).toFixed(1)} s (${(files.dbBytes / 2 ** 20).toFixed(1)} MiB)\n\n`,
    );
  }
  const results: ExperimentResult[] = [];
  const files: string[] = [];
  for (const [i, e] of EXPERIMENTS.entries()) {
    const t = performance.now();
    step(`experiment ${i + 1} of ${EXPERIMENTS.length}: ${e.name} (${e.title})`);
    const { result, file } = await runAndPrint(
      [e.name, ...(flags.has('full') ? [] : ['--quick'])],
      out,
      (l) => step(`  ${l.trimEnd()}`),
      width,
    );
    step(`${e.name} done in ${duration(performance.now() - t)}: ${verdictLine(result)}`);
    results.push(result);
    files.push(file);
    out('\n');
  }
  step('writing the report');
  const report = reportCommand(files, out);
  out(`\nWhat the ${results.length} experiments found (a check: a claim of the post this run decides):\n`);
  out(verdictSummary(results, width));
  out(`\nThe tour took ${duration(performance.now() - t0)}. Open the report: ${report}\n`);
  return report;
}
