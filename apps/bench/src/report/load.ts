import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkResult, type ExperimentResult } from '../result.js';

/** Reads and checks result files; a file that is not a result is an error naming it. */
export function loadResults(files: readonly string[]): ExperimentResult[] {
  return files.map((file) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(`${file}: cannot read a JSON result (${(err as Error).message})`);
    }
    return checkResult(parsed, file);
  });
}

/** Every `*.json` result in `dir`, oldest first (by start time); the latest per experiment and mode when `latest`. */
export function resultsIn(dir: string, latest = true): ExperimentResult[] {
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(dir, f));
  const all = loadResults(files).sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  if (!latest) return all;
  const last = new Map<string, ExperimentResult>();
  for (const r of all) last.set(`${r.experiment}/${r.quick}`, r);
  return [...last.values()];
}
