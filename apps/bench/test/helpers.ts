import { afterAll, expect } from 'vitest';
import type { ExperimentContext } from '../src/experiment.js';
import { cleanupNow } from '../src/internal/cleanup.js';
import { findExperiment } from '../src/registry.js';
import type { ExperimentResult, Table } from '../src/result.js';
import { checkResult } from '../src/result.js';
import { resultText } from '../src/print-result.js';
import { runExperiment } from '../src/runner.js';

// The unit suite never needs MariaDB: with it installed or not, the experiments run ours alone here.
process.env.ENGINEKIT_BENCH_MARIADB = '0';

// A test worker may end without an exit event: remove the shared TPC-H files when the file is done.
afterAll(() => cleanupNow());

export const ctx: ExperimentContext = { quick: true, sf: undefined, seed: 20260101, log: () => {} };

/** One `--quick` run; the result survives JSON and still passes the shape check the report applies. */
export async function quick(name: string): Promise<ExperimentResult> {
  const e = findExperiment(name);
  if (e === undefined) throw new Error(`no experiment ${name}`);
  const r = await runExperiment(e, ctx);
  return checkResult(JSON.parse(JSON.stringify(r)), name);
}

export function table(r: ExperimentResult, id: string): Table {
  const t = r.tables.find((x) => x.id === id);
  if (t === undefined) throw new Error(`${r.experiment} has no table ${id}`);
  return t;
}

/** Machine info, config, non-empty tables whose rows carry every column, text that fits 80–120 columns, charts of finite points. */
export function expectShape(r: ExperimentResult): void {
  expect(r.machine.cores).toBeGreaterThan(0);
  expect(r.machine.nodeVersion).toBe(process.version);
  expect(r.machine.loadAverage).toHaveLength(3);
  expect(r.config.quick).toBe(true);
  expect(r.config.seed).toBe(ctx.seed);
  expect(r.claims.length).toBeGreaterThan(0);
  for (const t of r.tables) {
    expect(t.rows.length).toBeGreaterThan(0);
    for (const row of t.rows) for (const c of t.columns) expect(row).toHaveProperty(c.key);
  }
  // what the CLI prints fits terminals 80, 100 and 120 columns wide
  for (const w of [80, 100, 120]) {
    const widest = Math.max(
      ...resultText(r, w)
        .split('\n')
        .map((l) => l.length),
    );
    expect(widest, `${r.experiment} at ${w} columns`).toBeLessThanOrEqual(w);
  }
  for (const c of r.charts) {
    expect(c.series.length).toBeGreaterThan(0);
    for (const s of c.series) {
      expect(s.points.length).toBeGreaterThan(0);
      for (const p of s.points) expect(Number.isFinite(p.y)).toBe(true);
    }
  }
}
