import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database, loadTpch } from '@enginekit/engine';
import { generateTpch } from '@enginekit/tpch';
import { onExit } from './cleanup.js';

/**
 * One scale factor of TPC-H for the SQL experiments: the dbgen `.tbl` files and enginekit's
 * database loaded from them, in a temp folder removed by {@link TpchFiles.remove} (and on exit).
 * Every peer (SQLite, DuckDB, MariaDB) loads the same `.tbl` files.
 */
export class TpchFiles {
  readonly sf: number;
  readonly dir: string;
  readonly tbl: string;
  readonly db: string;
  readonly generateMs: number;
  readonly loadMs: number;
  /** Bytes of enginekit's database file. */
  readonly dbBytes: number;

  private constructor(sf: number, dir: string, generateMs: number, loadMs: number) {
    this.sf = sf;
    this.dir = dir;
    this.tbl = join(dir, 'tbl');
    this.db = join(dir, 'tpch.ekdb');
    this.generateMs = generateMs;
    this.loadMs = loadMs;
    this.dbBytes = statSync(this.db).size;
  }

  static #shared = new Map<number, TpchFiles>();

  /**
   * The files of scale factor `sf` for this process: generated and loaded on first use, shared by
   * every experiment after (a tour loads each scale factor once), removed when the process exits.
   * Experiments open the database read-only in spirit: they change nothing in it.
   */
  static shared(sf: number, log: (line: string) => void): TpchFiles {
    let f = TpchFiles.#shared.get(sf);
    if (f === undefined || !existsSync(f.db)) {
      f = TpchFiles.create(sf, log);
      TpchFiles.#shared.set(sf, f);
    }
    return f;
  }

  static create(sf: number, log: (line: string) => void): TpchFiles {
    const dir = mkdtempSync(join(process.env.ENGINEKIT_BENCH_DIR ?? tmpdir(), 'enginekit-bench-tpch-'));
    const cleanup = (): void => rmSync(dir, { recursive: true, force: true });
    const release = onExit(cleanup);
    try {
      log(`generating TPC-H SF ${sf}`);
      const t0 = performance.now();
      generateTpch({ sf, out: join(dir, 'tbl') });
      const t1 = performance.now();
      log(`loading it into enginekit (${join(dir, 'tpch.ekdb')})`);
      loadTpch({ db: join(dir, 'tpch.ekdb'), tbl: join(dir, 'tbl') });
      return new TpchFiles(sf, dir, t1 - t0, performance.now() - t1);
    } catch (e) {
      cleanup();
      release();
      throw e;
    }
  }

  /** enginekit's database over the loaded file, with the pool (and disk model) asked for. */
  open(innodb_buffer_pool_size: number, disk?: 'hdd'): Database {
    return Database.open(this.db, { innodb_buffer_pool_size, ...(disk ? { disk } : {}) });
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
