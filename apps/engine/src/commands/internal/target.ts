import { accessSync, constants, existsSync, type Stats, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TPCH_TABLES } from '@enginekit/tpch';
import { FormatVersionError, NotADatabaseError } from '../../storage/errors.js';
import { probeHeader } from '../../storage/header.js';
import { TargetError } from './failure.js';

function writableDirectory(dir: string, what: string): void {
  if (!existsSync(dir)) throw new TargetError(`directory ${dir} does not exist${what}`);
  if (!statSync(dir).isDirectory()) throw new TargetError(`${dir} is not a directory${what}`);
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    throw new TargetError(`cannot write in directory ${dir}: permission denied`);
  }
}

/** Whether `path` holds an enginekit database (of any format version). */
export function isDatabaseFile(path: string): boolean {
  try {
    probeHeader(path);
    return true;
  } catch (e) {
    if (e instanceof FormatVersionError) return true;
    if (e instanceof NotADatabaseError) return false;
    throw e;
  }
}

/**
 * Before any work: the database file a load will write. Its directory must exist and be
 * writable; an existing file must be an enginekit database, replaced only with `force`.
 */
export function checkDatabaseTarget(path: string, force: boolean): void {
  writableDirectory(dirname(path), '');
  if (!existsSync(path)) return;
  const st = statSync(path);
  if (st.isDirectory()) throw new TargetError(`${path} is a directory, not a database file`);
  if (!st.isFile()) throw new TargetError(`${path} is not a regular file`);
  if (!isDatabaseFile(path)) {
    throw new TargetError(`${path} exists and is not an enginekit database; not replacing it`);
  }
  if (!force) throw new TargetError(`${path} already holds a database; add --force to replace it`);
}

/** Before any work: a directory of dbgen `.tbl` files, every table's file present and readable. */
export function checkTblDirectory(dir: string): void {
  if (!existsSync(dir)) throw new TargetError(`directory ${dir} does not exist`);
  if (!statSync(dir).isDirectory()) throw new TargetError(`${dir} is not a directory`);
  for (const t of TPCH_TABLES) {
    const f = join(dir, `${t}.tbl`);
    if (!existsSync(f)) throw new TargetError(`${f} does not exist`);
    if (!statSync(f).isFile()) throw new TargetError(`${f} is not a regular file`);
    try {
      accessSync(f, constants.R_OK);
    } catch {
      throw new TargetError(`cannot read ${f}: permission denied`);
    }
  }
}

/**
 * Before any work: the directory `.tbl` files go to. It may not exist yet (it is created, with
 * its parents), but whatever part of it exists must be directories we can write in.
 */
export function checkOutputDirectory(dir: string): void {
  let d = dir;
  while (!existsSync(d)) {
    const up = dirname(d);
    if (up === d) break;
    d = up;
  }
  if (d === dir && !statSync(d).isDirectory()) throw new TargetError(`${dir} exists and is not a directory`);
  writableDirectory(d, '');
}

/** What a path that is not a regular file is, in words. */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/**
 * Before `sql` or `serve` opens or creates the database FILE. A path that exists must be a
 * regular file (opening a FIFO would wait for a writer, a device would be read or overwritten):
 * refused at once, naming the path and what it is. A path that does not exist is refused unless
 * `create` is set (as mariadbd refuses a missing datadir), so a mistyped path never becomes a new
 * empty database; a new file goes into an existing directory we can write in.
 */
export function checkOpenTarget(path: string, create: boolean): 'open' | 'create' {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    if (!create) throw new TargetError(`${path} does not exist; add --create to create a new database there`);
    writableDirectory(dirname(path), ` (the directory of ${path})`);
    return 'create';
  }
  if (!st.isFile()) throw new TargetError(`${path} is ${kindOf(st)}, not a database file`);
  return 'open';
}
