import { join } from 'node:path';
import type { Experiment, ExperimentContext } from './experiment.js';
import { loadAverage, machineInfo } from './machine.js';
import { RESULT_SCHEMA, type ExperimentResult } from './result.js';
import { resultsDir, writeFileAtomic } from './results-dir.js';

/** Runs one experiment and wraps its output with the machine, the time and the post. */
export async function runExperiment(
  experiment: Experiment,
  context: ExperimentContext,
): Promise<ExperimentResult> {
  const machine = machineInfo();
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const out = await experiment.run(context);
  const durationMs = Math.round(performance.now() - t0);
  return {
    schema: RESULT_SCHEMA,
    experiment: experiment.name,
    title: experiment.title,
    post: experiment.post,
    config: {
      ...out.config,
      quick: context.quick,
      seed: context.seed,
      ...(context.sf !== undefined ? { sf: context.sf } : {}),
    },
    quick: context.quick,
    startedAt,
    durationMs,
    machine: { ...machine, loadAverageAfter: loadAverage() },
    claims: out.claims,
    tables: out.tables,
    charts: out.charts,
    data: out.data,
  };
}

/** The default file for a result: `results/<name>[-quick]-<UTC time>.json`. */
export function defaultResultFile(result: ExperimentResult): string {
  const stamp = result.startedAt.replace(/[:.]/g, '-');
  return join(resultsDir(), `${result.experiment}${result.quick ? '-quick' : ''}-${stamp}.json`);
}

/** Writes the result as JSON (atomically) and returns the path. */
export function saveResult(result: ExperimentResult, file: string = defaultResultFile(result)): string {
  writeFileAtomic(file, `${JSON.stringify(result, null, 1)}\n`);
  return file;
}
