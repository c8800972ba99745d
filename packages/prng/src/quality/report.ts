import type { GeneratorName, GeneratorOptions, RandomGenerator } from '../types.js';
import { createGenerator, generatorNames, legacyGeneratorNames } from '../create.js';
import {
  birthdayTest,
  diveTest,
  gapTest,
  residueTest,
  runsTest,
  serialTest,
  type TestResult,
  uniformityTest,
} from './tests.js';

/** The battery, in report order. Each entry runs one test on a fresh generator. */
export const batteryTests: readonly { name: string; run: (gen: RandomGenerator) => TestResult }[] = [
  { name: 'uniformity', run: (g) => uniformityTest(g) },
  { name: 'residue mod 3', run: (g) => residueTest(g, 3) },
  { name: 'residue mod 4', run: (g) => residueTest(g, 4) },
  { name: 'serial pairs', run: (g) => serialTest(g, 16) },
  { name: 'gap', run: (g) => gapTest(g) },
  { name: 'runs up', run: (g) => runsTest(g) },
  { name: 'birthday spacings', run: (g) => birthdayTest(g) },
  { name: 'dive among 2', run: (g) => diveTest(g, 2) },
  { name: 'dive among 3', run: (g) => diveTest(g, 3) },
  { name: 'dive among 4', run: (g) => diveTest(g, 4) },
  { name: 'dive among 7', run: (g) => diveTest(g, 7) },
];

export interface GeneratorReport {
  readonly generator: GeneratorName;
  readonly legacy: boolean;
  readonly results: readonly TestResult[];
  readonly failed: number;
}

export interface ReportOptions {
  /** Which generators to test (default: all). */
  generators?: readonly GeneratorName[];
  /** Seed for the modern generators (default 42). Legacy ones start where the server started. */
  seed?: number;
  /** Seed for `innodb-lcg64`, which the server seeds from the clock (default 1). */
  lcgSeed?: number;
  /** Word width for the InnoDB generators (default 64). */
  wordBits?: 32 | 64;
}

function optionsFor(name: GeneratorName, options: ReportOptions): GeneratorOptions {
  const wordBits = options.wordBits ?? 64;
  if (name === 'innodb-lcg64') return { seed: options.lcgSeed ?? 1, wordBits };
  if (legacyGeneratorNames.includes(name)) return { wordBits };
  if (name === 'park-miller') return { seed: options.seed ?? 42 };
  return { seed: options.seed ?? 42 };
}

/**
 * Run the battery on every generator. Each test starts a fresh generator from the same seed, so
 * the report is deterministic.
 */
export function report(options: ReportOptions = {}): GeneratorReport[] {
  const names = options.generators ?? generatorNames;
  return names.map((generator) => {
    const results = batteryTests.map((t) =>
      t.run(createGenerator(generator, optionsFor(generator, options))),
    );
    return {
      generator,
      legacy: legacyGeneratorNames.includes(generator),
      results,
      failed: results.filter((r) => !r.passed).length,
    };
  });
}

function formatP(p: number): string {
  if (p === 0) return '0';
  if (p < 1e-4) return p.toExponential(0);
  if (p > 0.9999) return '>0.9999';
  return p.toFixed(4);
}

/** The report as a fixed-width text table: one row per test, one column per generator (p-value, `✗` when failed). */
export function formatReport(reports: readonly GeneratorReport[]): string {
  const header = ['test', ...reports.map((r) => r.generator)];
  const rows = batteryTests.map((t, i) => [
    t.name,
    ...reports.map((r) => {
      const res = r.results[i]!;
      return `${formatP(res.pValue)}${res.passed ? '' : ' ✗'}`;
    }),
  ]);
  rows.push(['failed', ...reports.map((r) => `${r.failed}/${r.results.length}`)]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
