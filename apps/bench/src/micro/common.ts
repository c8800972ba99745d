import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateTpch } from '@enginekit/tpch';
import { onExit } from '../internal/cleanup.js';
import { loadSqliteTpch } from '../peers/sqlite-tpch.js';

/** The engine's exports, as this app builds against them (another build is assumed alike). */
export type EngineModule = typeof import('@enginekit/engine');
/** A database and a session of any build (typed as this app's). */
export type EngineDatabase = import('@enginekit/engine').Database;
export type EngineSession = import('@enginekit/engine').Session;

/** The load averages as `uptime` shows them, `digits` decimals, joined by `separator`. */
export function loadAverage(digits = 2, separator = ', '): string {
  return loadavg()
    .map((x) => x.toFixed(digits))
    .join(separator);
}

/**
 * The engine build to measure: this app's `@enginekit/engine` without `path`, else another
 * build's (its `dist` folder or its `index.js`, relative to the working directory), for
 * before/after runs.
 */
export async function importEngine(path?: string): Promise<EngineModule> {
  if (path === undefined) return import('@enginekit/engine');
  let file = resolve(path);
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory() === true) file = join(file, 'index.js');
  return (await import(pathToFileURL(file).href)) as EngineModule;
}

/**
 * A temp folder for one run (under `ENGINEKIT_BENCH_DIR` when set), removed by `remove` and, at
 * the latest, when the process exits.
 */
export function runDir(prefix: string): { dir: string; remove: () => void } {
  const base = process.env.ENGINEKIT_BENCH_DIR ?? tmpdir();
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, `enginekit-micro-${prefix}-`));
  const clean = (): void => rmSync(dir, { recursive: true, force: true });
  const release = onExit(clean);
  return {
    dir,
    remove: () => {
      clean();
      release();
    },
  };
}

/** TPC-H for two engine builds side by side: one loaded file per build and an in-memory SQLite. */
export interface TwoBuilds {
  readonly dir: string;
  /** This app's build (its file `a.ekdb`) and the `before` one, if given (a copy, `b.ekdb`). */
  readonly after: EngineModule;
  readonly before: EngineModule | undefined;
  readonly sqlite: import('better-sqlite3').Database;
  /** Closes SQLite and removes the folder. */
  close(): void;
}

/**
 * Generates TPC-H at `sf`, loads it with this app's build into `a.ekdb` and copies that to
 * `b.ekdb` for the build at `beforePath` (see {@link importEngine}), and into SQLite in memory.
 */
export async function tpchForTwoBuilds(prefix: string, sf: number, beforePath?: string): Promise<TwoBuilds> {
  const after = await importEngine();
  const before = beforePath === undefined ? undefined : await importEngine(beforePath);
  const { dir, remove } = runDir(prefix);
  try {
    const tbl = join(dir, 'tbl');
    generateTpch({ sf, out: tbl });
    after.loadTpch({ db: join(dir, 'a.ekdb'), tbl });
    copyFileSync(join(dir, 'a.ekdb'), join(dir, 'b.ekdb'));
    const sqlite = loadSqliteTpch(tbl, ':memory:');
    return {
      dir,
      after,
      before,
      sqlite,
      close: () => {
        sqlite.close();
        remove();
      },
    };
  } catch (e) {
    remove();
    throw e;
  }
}
