import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

/** Links followed before a path is taken for a loop (Linux's MAXSYMLINKS). */
const MAX_LINKS = 40;

function code(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * The file a database path names, with every symbolic link resolved: the real path of an existing
 * file; for a name that does not exist yet, the real path of its directory joined with the name;
 * for a link whose target does not exist yet, that target resolved the same way. Every file the
 * engine names after the database (the redo log group, the doublewrite file, the lock file, a
 * load's side file) is placed beside this path, so opening the database through a link and by
 * its real name finds the same files. A directory that does not exist leaves the path as given
 * (made absolute): creating the file there fails with the system's own error.
 */
export function resolveDatabasePath(path: string): string {
  let p = resolve(path);
  for (let links = 0; links <= MAX_LINKS; links++) {
    try {
      return realpathSync(p);
    } catch (e) {
      if (code(e) !== 'ENOENT') throw e;
    }
    let isLink = false;
    try {
      isLink = lstatSync(p).isSymbolicLink();
    } catch (e) {
      if (code(e) !== 'ENOENT') throw e;
    }
    if (!isLink) {
      try {
        return join(realpathSync(dirname(p)), basename(p));
      } catch (e) {
        if (code(e) !== 'ENOENT') throw e;
        return p;
      }
    }
    const target = readlinkSync(p);
    p = isAbsolute(target) ? target : resolve(dirname(p), target);
  }
  throw new RangeError(`path: ${path} goes through more than ${MAX_LINKS} symbolic links (a loop?)`);
}
