// The report of a sqllogictest run: a per-file pass/fail table, totals per corpus part, and the
// failures grouped by cause (the input of the "what still fails" list in the SQL docs).
import { relative } from 'node:path';
import type { SltFileResult } from './sql-slt-pool.js';

export interface PartTotals {
  readonly passed: number;
  readonly total: number;
}

export function partTotals(
  dir: string,
  results: readonly SltFileResult[],
  part: (dir: string, file: string) => string,
): Record<string, PartTotals> {
  const out: Record<string, { passed: number; total: number }> = {};
  for (const r of results) {
    const p = part(dir, r.file);
    const t = (out[p] ??= { passed: 0, total: 0 });
    t.passed += r.passed;
    t.total += r.total;
  }
  return out;
}

/** Failures grouped by cause, most frequent first, each with up to `examples` sample records. */
export function causes(
  dir: string,
  results: readonly SltFileResult[],
  examples = 2,
): { cause: string; count: number; examples: string[] }[] {
  const m = new Map<string, { cause: string; count: number; examples: string[] }>();
  for (const r of results) {
    for (const f of r.failures) {
      let e = m.get(f.cause);
      if (e === undefined) m.set(f.cause, (e = { cause: f.cause, count: 0, examples: [] }));
      e.count++;
      if (e.examples.length < examples)
        e.examples.push(
          `${relative(dir, r.file)}:${f.line}: ${f.sql.replace(/\s+/g, ' ').slice(0, 160)}${f.detail ? ` -- ${f.detail.slice(0, 160)}` : ''}`,
        );
    }
  }
  return [...m.values()].sort((a, b) => b.count - a.count || (a.cause < b.cause ? -1 : 1));
}

const pct = (p: number, t: number): string => (t === 0 ? '-' : `${((100 * p) / t).toFixed(1)}%`);

/** Markdown: totals, per-part, per-file table and the causes. */
export function reportMarkdown(
  dir: string,
  engine: string,
  results: readonly SltFileResult[],
  part: (dir: string, file: string) => string,
): string {
  const passed = results.reduce((a, r) => a + r.passed, 0);
  const total = results.reduce((a, r) => a + r.total, 0);
  const seconds = results.reduce((a, r) => a + r.seconds, 0);
  const lines = [
    `# sqllogictest as engine \`${engine}\``,
    '',
    `${passed} of ${total} records pass (${pct(passed, total)}), ${results.length} files, ${seconds.toFixed(1)} s of worker time.`,
    '',
    '| part | passed | records | |',
    '|---|---:|---:|---:|',
    ...Object.entries(partTotals(dir, results, part)).map(
      ([p, t]) => `| ${p} | ${t.passed} | ${t.total} | ${pct(t.passed, t.total)} |`,
    ),
    '',
    '| file | passed | failed | records | timeouts | seconds |',
    '|---|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${relative(dir, r.file)} | ${r.passed} | ${r.total - r.passed} | ${r.total} | ${r.timeouts} | ${r.seconds.toFixed(1)} |`,
    ),
    '',
    '## Failures by cause',
    '',
    '| records | cause | examples |',
    '|---:|---|---|',
    ...causes(dir, results).map(
      (c) =>
        `| ${c.count} | ${c.cause.replace(/\|/g, '\\|')} | ${c.examples.join('<br>').replace(/\|/g, '\\|')} |`,
    ),
    '',
  ];
  return lines.join('\n');
}
