import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

/** Another live process has the database open (MariaDB: "Unable to lock ./ibdata1"). */
export class DatabaseLockedError extends Error {
  override readonly name = 'DatabaseLockedError';
  readonly path: string;
  readonly pid: number;

  constructor(path: string, lockPath: string, pid: number) {
    super(
      `unable to lock ${path}: process ${pid} has it open (${lockPath}); ` +
        'check that no other enginekit process uses the same database',
    );
    this.path = path;
    this.pid = pid;
  }
}

/** Lock files this process holds → how many Database objects hold each. */
const held = new Map<string, number>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The database file's owner (InnoDB locks its data files with `fcntl` at startup; Node has no
 * advisory locks, so a lock file does it): `<file>.lock` next to the file its path resolves to
 * (through symbolic links), holding the pid of the process that opened it for writing. A second process
 * that finds a live pid there is refused; a lock left by a process that died (a crash, a kill)
 * is taken over. Threads of one process share it (their Database objects count it), and
 * read-only opens take none.
 */
export class DatabaseLock {
  readonly path: string;
  #released = false;

  private constructor(path: string) {
    this.path = path;
  }

  /**
   * Takes the lock of the database file at `path`, a path with its symbolic links already resolved
   * (`resolveDatabasePath`, as every file named after the database). Throws
   * {@link DatabaseLockedError}.
   */
  static acquire(path: string): DatabaseLock {
    const lockPath = `${path}.lock`;
    const n = held.get(lockPath);
    if (n !== undefined) {
      held.set(lockPath, n + 1);
      return new DatabaseLock(lockPath);
    }
    for (let attempt = 0; ; attempt++) {
      try {
        const fd = openSync(lockPath, 'wx', 0o600);
        try {
          writeSync(fd, `${process.pid}\n`);
        } finally {
          closeSync(fd);
        }
        held.set(lockPath, 1);
        return new DatabaseLock(lockPath);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw e;
      }
      let pid = Number.NaN;
      try {
        pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      } catch {
        // removed meanwhile: try again
      }
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid))
        throw new DatabaseLockedError(path, lockPath, pid);
      // a stale lock (its process is gone, or it is this process's own from an abandoned open)
      try {
        unlinkSync(lockPath);
      } catch {
        // another opener removed it first: the exclusive create decides
      }
    }
  }

  /** Gives the lock back (the file goes when this process's last holder releases it). */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    const n = held.get(this.path) ?? 0;
    if (n > 1) {
      held.set(this.path, n - 1);
      return;
    }
    held.delete(this.path);
    try {
      unlinkSync(this.path);
    } catch {
      // already gone
    }
  }
}
