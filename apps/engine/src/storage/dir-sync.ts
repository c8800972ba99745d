import { closeSync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** Who else learns of a directory fsync (a test's fault plan, which models directory entries). */
export interface DirectorySyncOptions {
  /** Test hook: runs after each directory fsync the engine makes, with the directory. */
  readonly onDirectorySync?: (directory: string) => void;
}

/**
 * fsyncs `directory`, so the entries created, renamed or removed in it survive a power cut: an
 * fsync of a file makes its bytes durable, not its name. Linux lets a directory be opened read-only
 * and fsynced; a platform that refuses (EISDIR on open, EINVAL or EPERM on fsync) gives no other
 * way, and the call does nothing there.
 */
export function fsyncDirectory(directory: string, o: DirectorySyncOptions = {}): void {
  let fd: number;
  try {
    fd = openSync(directory, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EISDIR') throw e;
    o.onDirectorySync?.(directory);
    return;
  }
  try {
    fsyncSync(fd);
  } catch (e) {
    const c = (e as NodeJS.ErrnoException).code;
    if (c !== 'EINVAL' && c !== 'EPERM') throw e;
  } finally {
    closeSync(fd);
  }
  o.onDirectorySync?.(directory);
}

/** fsyncs the directory holding `file` (after creating, renaming or removing it). */
export function fsyncParent(file: string, o: DirectorySyncOptions = {}): void {
  fsyncDirectory(dirname(file), o);
}
