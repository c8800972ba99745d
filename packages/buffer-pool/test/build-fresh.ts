// Vitest global setup: the worker-thread tests run the built package (a worker cannot load
// TypeScript), and so does their main-thread side, so both must be built from the current
// sources. Rebuild dist/ with tsup when it is missing or older than src/; fail loudly otherwise.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = join(dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** True when `pkg`'s dist/index.js is missing or older than a file of src/ or its tsup config. */
export function isStale(pkg: string): boolean {
  const out = join(pkg, 'dist', 'index.js');
  if (!existsSync(out)) return true;
  const inputs = Math.max(newestMtime(join(pkg, 'src')), statSync(join(pkg, 'tsup.config.ts')).mtimeMs);
  return statSync(out).mtimeMs < inputs;
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Builds `pkg` with tsup under a lock directory (two test projects may need the same package). */
export function buildFresh(pkg: string): void {
  if (!isStale(pkg)) return;
  const lock = join(pkg, '.tmp', 'build.lock');
  mkdirSync(join(pkg, '.tmp'), { recursive: true });
  for (let waited = 0; ; waited += 100) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than two minutes was left by a killed run.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000)
        rmSync(lock, { recursive: true });
      if (waited > 120_000) throw new Error(`timed out waiting for ${lock} (another build of ${pkg})`);
      sleep(100);
    }
  }
  try {
    if (!isStale(pkg)) return;
    const req = createRequire(join(pkg, 'package.json'));
    const tsupPkg = req.resolve('tsup/package.json');
    const bin = (JSON.parse(readFileSync(tsupPkg, 'utf8')) as { bin: Record<string, string> }).bin.tsup!;
    try {
      execFileSync(process.execPath, [join(dirname(tsupPkg), bin)], { cwd: pkg, stdio: 'pipe' });
    } catch (e) {
      const err = e as { stdout?: Buffer; stderr?: Buffer };
      throw new Error(
        `building ${pkg} with tsup failed (the worker tests need its dist/):\n${String(err.stdout ?? '')}${String(err.stderr ?? '')}`,
      );
    }
    if (isStale(pkg)) throw new Error(`tsup ran in ${pkg} but dist/index.js is still older than src/`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export default function setup(): void {
  // The pool takes its latches from @enginekit/mutex-atomics: its dist/ must be current too.
  buildFresh(
    dirname(createRequire(join(self, 'package.json')).resolve('@enginekit/mutex-atomics/package.json')),
  );
  buildFresh(self);
}
