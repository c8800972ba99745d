import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { transform } from 'esbuild';
import type { ExampleBlock } from './extract.js';

/** Prefix of the temp program written into a package folder (gitignored). */
export const tempPrefix = '.readme-example-';

/** What one run of a block did. */
export interface BlockRun {
  /** Exit code, or null when the process was killed. */
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
  /** What the program left in its private TMPDIR (paths relative to it); must be empty. */
  readonly leftovers: readonly string[];
  /** Entries of the package folder that appeared during the run; must be empty. */
  readonly strays?: readonly string[];
}

export interface RunOptions {
  /** Folder the program is written to and run from (the README's package folder). */
  readonly dir: string;
  /** Kill the program after this many milliseconds (default 120 s). */
  readonly timeoutMs?: number;
  /** The README's path, named in stack traces of TypeScript blocks. */
  readonly readme?: string;
}

function listTree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

/**
 * The program text for a block, padded with blank lines so that line N of the temp file is
 * line N of the README (stack traces point into the README). TypeScript blocks have their types
 * stripped by esbuild, with an inline source map back to the README's lines.
 */
export async function programText(block: ExampleBlock, readmeName = 'README.md'): Promise<string> {
  const padded = '\n'.repeat(block.line) + block.code;
  if (block.lang === 'js') return padded;
  try {
    const out = await transform(padded, {
      loader: 'ts',
      format: 'esm',
      target: 'node20',
      sourcemap: 'inline',
      // The program is written next to the README, so the map names it by its file name.
      sourcefile: basename(readmeName),
    });
    return out.code;
  } catch (err) {
    const first = (err as { errors?: { text: string; location?: { line: number; column: number } }[] })
      .errors?.[0];
    if (!first) throw err;
    const at = first.location
      ? `${readmeName}:${first.location.line}:${first.location.column + 1}`
      : readmeName;
    throw new SyntaxError(`${at}: the block is not a TypeScript program: ${first.text}`);
  }
}

/**
 * Runs a block as a program: written as `.readme-example-*.mjs` into `dir` (so a package's own
 * name resolves by self-reference), run with this Node, `dir` as the working directory and
 * TMPDIR a fresh private folder, which is listed after the run and removed. The temp program
 * is removed on every path.
 */
export async function runBlock(block: ExampleBlock, options: RunOptions): Promise<BlockRun> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const file = join(options.dir, `${tempPrefix}${process.pid}-${block.line}.mjs`);
  const privateTmp = mkdtempSync(join(tmpdir(), 'readme-example-'));
  const entriesBefore = new Set(readdirSync(options.dir));
  try {
    writeFileSync(file, await programText(block, options.readme));
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (!key.startsWith('VITEST') && key !== 'NODE_OPTIONS') env[key] = value;
    }
    Object.assign(env, { TMPDIR: privateTmp, TMP: privateTmp, TEMP: privateTmp, NO_COLOR: '1' });
    delete env.FORCE_COLOR;
    const run = await new Promise<Omit<BlockRun, 'leftovers'>>((resolve, reject) => {
      const child = spawn(process.execPath, ['--enable-source-maps', file], {
        cwd: options.dir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let timedOut = false;
      child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
      child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.on('close', (status, signal) => {
        clearTimeout(timer);
        resolve({ status, signal, timedOut, stdout, stderr });
      });
    });
    const leftovers = listTree(privateTmp);
    rmSync(file, { force: true });
    const strays = readdirSync(options.dir).filter((name) => !entriesBefore.has(name));
    return { ...run, leftovers, strays };
  } finally {
    rmSync(file, { force: true });
    rmSync(privateTmp, { recursive: true, force: true });
  }
}

/**
 * What is wrong with a run, one line a problem (empty: the block passed): a non-zero exit or a
 * kill, a timeout, files left in TMPDIR or in the package folder, a hard-coded `/tmp` path (it
 * escapes the private TMPDIR), and each `// prints:` TEXT not found in stdout after the previous
 * one.
 */
export function runProblems(block: ExampleBlock, run: BlockRun, options: { dir?: string } = {}): string[] {
  const problems: string[] = [];
  if (run.timedOut) problems.push('timed out (killed)');
  else if (run.status !== 0) {
    problems.push(`exit ${run.status ?? run.signal}`);
    const notBuilt =
      options.dir !== undefined &&
      /ERR_MODULE_NOT_FOUND|Cannot find (module|package)/.test(run.stderr) &&
      !existsSync(join(options.dir, 'dist'));
    if (notBuilt) problems.push('the package has no dist/: run `pnpm build` first');
  }
  if (run.leftovers.length > 0) problems.push(`left in TMPDIR: ${run.leftovers.join(', ')}`);
  if (run.strays && run.strays.length > 0)
    problems.push(`left in the package folder: ${run.strays.join(', ')}`);
  const fixedTmp = block.code.split('\n').findIndex((l) => /['"`]\/tmp(\/|['"`])/.test(l));
  if (fixedTmp >= 0)
    problems.push(
      `README line ${block.line + fixedTmp + 1}: a fixed /tmp path; make a folder with mkdtempSync(join(tmpdir(), ...)) and remove it in finally`,
    );
  let from = 0;
  for (const { text, line } of block.prints) {
    const at = run.stdout.indexOf(text, from);
    if (at < 0) {
      const where = run.stdout.includes(text) ? ' after the previous // prints: line' : '';
      problems.push(`README line ${block.line + line}: stdout lacks ${JSON.stringify(text)}${where}`);
    } else {
      from = at + text.length;
    }
  }
  return problems;
}

/** A failure message: the problems, then the tail of the program's stdout and stderr. */
export function describeFailure(problems: readonly string[], run: BlockRun): string {
  const tail = (s: string) => s.trimEnd().split('\n').slice(-30).join('\n');
  const parts = [...problems];
  if (run.stdout.trim() !== '') parts.push(`--- stdout ---\n${tail(run.stdout)}`);
  if (run.stderr.trim() !== '') parts.push(`--- stderr ---\n${tail(run.stderr)}`);
  return parts.join('\n');
}

/** A file left behind by an earlier, interrupted run (none normally). */
export function strayPrograms(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith(tempPrefix));
}
