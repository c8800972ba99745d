// Where SQLite's sqllogictest corpus lives: `SQLLOGICTEST_DIR` if set, else `sqllogictest/` in the
// `shared/` directory beside the repository (a clone's root, or for a git worktree the main
// checkout's root). The files are read in place, never copied into the repository.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is apps/engine/test/helpers/). */
export const REPO_ROOT: string = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** The corpus directory, or undefined when it is not present on this machine. */
export function findCorpus(): string | undefined {
  const candidates: string[] = [];
  const env = process.env['SQLLOGICTEST_DIR'];
  if (env !== undefined && env !== '') candidates.push(resolve(env));
  candidates.push(join(REPO_ROOT, '..', 'shared', 'sqllogictest'));
  try {
    const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    candidates.push(join(dirname(common), '..', 'shared', 'sqllogictest'));
  } catch {
    // not a git checkout: only the plain layout applies
  }
  return candidates.find((c) => existsSync(join(c, 'select1.test')));
}

/** Every `.test` file under `dir`, sorted by relative path. */
export function corpusFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.test')) out.push(p);
    }
  };
  walk(dir);
  return out.sort((a, b) => (relative(dir, a) < relative(dir, b) ? -1 : 1));
}

/** The corpus part a file belongs to: `select`, `evidence` or `index`. */
export function corpusPart(dir: string, file: string): string {
  const rel = relative(dir, file);
  return rel.includes('/') ? (rel.split('/')[0] ?? rel) : 'select';
}
