// Vitest global setups of packages whose worker-thread tests run the built package (a worker
// cannot load TypeScript): the main-thread side imports dist/ too, so both run the same code.
// `buildFresh` rebuilds a package's dist/ with tsup when it is missing or older than src/, and
// fails loudly when it cannot.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** @param {string} dir */
function newestMtime(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return t;
}

/**
 * True when `pkg`'s dist/index.js is missing or older than a file of src/ or its tsup config.
 * @param {string} pkg
 */
export function isStale(pkg) {
  const out = join(pkg, 'dist', 'index.js');
  if (!existsSync(out)) return true;
  const inputs = Math.max(newestMtime(join(pkg, 'src')), statSync(join(pkg, 'tsup.config.ts')).mtimeMs);
  return statSync(out).mtimeMs < inputs;
}

/** @param {number} ms */
function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Builds `pkg` (a package folder) with tsup when its dist/ is missing or older than src/, under a
 * lock directory (two test projects may need the same package); throws with tsup's output if the
 * build fails.
 * @param {string} pkg
 */
export function buildFresh(pkg) {
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
    const bin = JSON.parse(readFileSync(tsupPkg, 'utf8')).bin.tsup;
    try {
      execFileSync(process.execPath, [join(dirname(tsupPkg), bin)], { cwd: pkg, stdio: 'pipe' });
    } catch (e) {
      const err = /** @type {{ stdout?: Buffer; stderr?: Buffer }} */ (e);
      throw new Error(
        `building ${pkg} with tsup failed (the worker tests need its dist/):\n${String(err.stdout ?? '')}${String(err.stderr ?? '')}`,
      );
    }
    if (isStale(pkg)) throw new Error(`tsup ran in ${pkg} but dist/index.js is still older than src/`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
