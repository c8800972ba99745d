import { basename, join, resolve } from 'node:path';
import { generateTpch, TPCH_TABLES, type TpchStep } from '@enginekit/tpch';
import { noWords, parseArgs, positiveInteger, scaleFactor, stringOption, UsageError } from './cli-args.js';
import { runJob } from './internal/job.js';
import type { JobProgress } from './internal/messages.js';
import { ProgressBars } from './internal/progress.js';
import { checkOutputDirectory } from './internal/target.js';
import { GEN } from './usage.js';

/** What `tpch gen` hands its worker. */
export interface GenOptions {
  readonly sf: number;
  readonly out: string;
  readonly chunks: number;
  readonly step: number;
  readonly quiet: boolean;
}

const STEP_LABEL: Record<TpchStep, string> = {
  text: 'text pool',
  region: 'region',
  nation: 'nation',
  supplier: 'supplier',
  customer: 'customer',
  part: 'part+partsupp',
  orders: 'orders+lineitem',
};

/** The work of `tpch gen` (in the worker). */
export function genWork(
  o: GenOptions,
  progress: (p: JobProgress) => void,
  out: (text: string) => void,
): void {
  const started = performance.now();
  const result = generateTpch({
    sf: o.sf,
    out: o.out,
    chunks: o.chunks,
    step: o.step,
    onProgress: (step, done, total) => progress({ kind: 'gen', step, done, total }),
  });
  if (o.quiet) return;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const bytes = result.files.reduce((a, f) => a + f.bytes, 0);
  out(
    `${result.files.map((f) => `${basename(f.path)} ${f.rows} rows`).join(', ')}\n` +
      `SF ${o.sf}: ${(bytes / 1e6).toFixed(1)} MB in ${o.out} (${seconds} s)\n`,
  );
}

/** `enginekit tpch gen` */
export async function genCommand(argv: readonly string[]): Promise<void> {
  const spec = GEN.spec;
  const args = parseArgs(argv, spec);
  noWords(args, spec);
  const sf = scaleFactor(args, spec.name, 0.01);
  const out = resolve(stringOption(args, 'out', spec.name));
  const chunks = positiveInteger(args, 'chunks', spec.name, 1);
  const step = positiveInteger(args, 'step', spec.name, 1);
  if (step > chunks) throw new UsageError(`${spec.name}: --step ${step} is beyond --chunks ${chunks}`);
  const quiet = args.options.has('quiet');
  checkOutputDirectory(out);

  const targets = TPCH_TABLES.filter((t) => step === 1 || (t !== 'nation' && t !== 'region')).map((t) =>
    join(out, chunks > 1 && t !== 'nation' && t !== 'region' ? `${t}.tbl.${step}` : `${t}.tbl`),
  );
  const bars = new ProgressBars(process.stderr, 16, 0);
  let current: TpchStep | undefined;
  let value = 0;
  await runJob({
    kind: 'gen',
    command: spec.name,
    options: (): GenOptions => ({ sf, out, chunks, step, quiet }),
    partialFiles: targets,
    ...(quiet || !bars.enabled
      ? {}
      : {
          onProgress: (p: JobProgress): void => {
            if (p.kind !== 'gen') return;
            if (p.step !== current) {
              current = p.step;
              value = 0;
              bars.start(STEP_LABEL[p.step], p.total);
            }
            value += p.done;
            bars.update(value);
          },
        }),
    onEnd: () => bars.stop(),
  });
}
