import { existsSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bench app's folder: the nearest parent of this module with the app's package.json. */
export function appRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (
      existsSync(pkg) &&
      (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === '@enginekit/bench'
    ) {
      return dir;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the @enginekit/bench package folder above this module');
    dir = up;
  }
}

/** Where experiments write by default and `report` reads by default (gitignored). */
export function resultsDir(): string {
  return join(appRoot(), 'results');
}

/** Writes `text` to `file` all at once: a temporary file beside it, then a rename. */
export function writeFileAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
