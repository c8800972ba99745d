import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { machineInfo } from './machine.js';
import type { MachineInfo } from './result.js';

/** Format tag of a collected package-bench file. */
export const COLLECT_SCHEMA = 'enginekit-bench/collect@1';

/** One benny case as printed: `name:` then `N ops/s, ±M%`, under `Running "suite" suite...`. */
export interface BennyCase {
  readonly suite: string;
  readonly name: string;
  readonly opsPerSec: number;
  readonly marginPct: number;
}

/** A markdown table a bench printed (`| a | b |` lines). */
export interface MarkdownTable {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export interface PackageBench {
  readonly name: string;
  readonly dir: string;
  readonly command: string;
  readonly exitCode: number | null;
  readonly durationMs: number;
  readonly cases: readonly BennyCase[];
  readonly tables: readonly MarkdownTable[];
  readonly output: string;
}

export interface CollectResult {
  readonly schema: typeof COLLECT_SCHEMA;
  readonly startedAt: string;
  readonly machine: MachineInfo;
  readonly packages: readonly PackageBench[];
}

const CASE_RESULT = /^\s*(\d[\d ,]*(?:\.\d+)?) ops\/s, ±(\d+(?:\.\d+)?)%/;
const SUITE = /^Running "(.*)" suite\.\.\.$/;
// Terminal control sequences benny's progress line repaints with.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ESC is the point
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Output as a terminal would show it, minus colour and cursor movement. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * The benny cases in a bench's output: a `name:` line followed by its `ops/s` line (thousands
 * separated by spaces or commas), in the suite named by the last `Running "…" suite...` line.
 * Benny repaints every case finished so far after each new one, so the last figure of each
 * (suite, case) is kept, in first-seen order.
 */
export function parseBennyCases(output: string): BennyCase[] {
  const lines = stripAnsi(output).split(/\r?\n/);
  const found = new Map<string, BennyCase>();
  let suite = '';
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    const s = SUITE.exec(line);
    if (s !== null) {
      suite = s[1] as string;
      continue;
    }
    const m = CASE_RESULT.exec(line);
    const prev = i > 0 ? (lines[i - 1] as string).trim() : '';
    if (m !== null && prev.endsWith(':')) {
      const name = prev.slice(0, -1).trim();
      found.set(`${suite}\u0000${name}`, {
        suite,
        name,
        opsPerSec: Number((m[1] as string).replace(/[ ,]/g, '')),
        marginPct: Number(m[2]),
      });
    }
  }
  return [...found.values()];
}

/** The markdown tables in a bench's output (separator rows dropped). */
export function parseMarkdownTables(output: string): MarkdownTable[] {
  const tables: MarkdownTable[] = [];
  let current: string[][] = [];
  const flush = (): void => {
    if (current.length >= 2) tables.push({ header: current[0] as string[], rows: current.slice(1) });
    current = [];
  };
  for (const raw of stripAnsi(output).split(/\r?\n/)) {
    const line = raw.trim();
    if (!line.startsWith('|') || !line.endsWith('|')) {
      flush();
      continue;
    }
    const cells = line
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim());
    if (cells.every((c) => /^:?-{3,}:?$/.test(c))) continue;
    current.push(cells);
  }
  flush();
  return tables;
}

/** Workspace packages (packages/*, apps/*) that have a `bench` script, as [name, dir]. */
export function benchPackages(root: string): [string, string][] {
  const out: [string, string][] = [];
  for (const group of ['packages', 'apps']) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const d of readdirSync(base).sort()) {
      const pkg = join(base, d, 'package.json');
      if (!existsSync(pkg)) continue;
      const json = JSON.parse(readFileSync(pkg, 'utf8')) as {
        name: string;
        scripts?: Record<string, string>;
      };
      if (json.scripts?.bench !== undefined) out.push([json.name, join(base, d)]);
    }
  }
  return out;
}

/**
 * Runs each package's benny suite through turbo (`turbo run bench --filter=<package>`: the
 * `bench` task is never cached and builds what it needs first), one package after another so
 * no two suites share the 2 cores, and gathers their output, cases and tables with the
 * machine's description and the git commit.
 */
export function collectBenches(
  root: string,
  only: readonly string[],
  log: (line: string) => void,
): CollectResult {
  const startedAt = new Date().toISOString();
  const machine = machineInfo();
  const chosen = benchPackages(root).filter(
    ([name, dir]) => only.length === 0 || only.some((o) => name === o || dir.endsWith(`/${o}`)),
  );
  if (only.length > 0 && chosen.length === 0)
    throw new RangeError(`no package with a bench script matches ${only.join(', ')}`);
  const packages = chosen.map(([name, dir]): PackageBench => {
    log(`collect: ${name}`);
    const t0 = performance.now();
    const args = [
      'exec',
      'turbo',
      'run',
      'bench',
      `--filter=${name}`,
      '--output-logs=full',
      '--log-prefix=none',
      '--ui=stream',
    ];
    const run = spawnSync('pnpm', args, {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
    return {
      name,
      dir,
      command: `pnpm ${args.join(' ')}`,
      exitCode: run.status,
      durationMs: Math.round(performance.now() - t0),
      cases: parseBennyCases(output),
      tables: parseMarkdownTables(output),
      output,
    };
  });
  return { schema: COLLECT_SCHEMA, startedAt, machine, packages };
}
