import { DiskFullError, TempFileError } from '@enginekit/common';
import { SqlError } from '../sql/errors.js';
import { FileFullError } from '../storage/file-extend.js';
import { RedoLogFullError } from '../storage/redo/errors.js';

/** The storage's duplicate-key message in MariaDB's words: the key named without its table. */
export function duplicateMessage(e: Error): string {
  return e.message.replace(/ for key '[^'.]*\.([^']*)'$/, " for key '$1'");
}

/**
 * A storage failure as the client reads it, with MySQL's error numbers: a duplicate key (1062), a
 * row too large (1118), a data file that cannot grow (1114, "The table … is full", as InnoDB's
 * DB_OUT_OF_FILE_SPACE), a temp file that cannot be written (1878 while building an index, as
 * InnoDB's merge sort; 3, "Error writing file", elsewhere), a redo log without room or a corrupt
 * page (1030),
 * another write error (3). Anything else is returned as it is. `building`: the statement builds
 * an index (CREATE INDEX, ALTER TABLE).
 */
export function storageError(e: unknown, building = false): unknown {
  if (e instanceof SqlError) return e;
  if (e instanceof Error && e.name === 'DuplicateEntryError')
    return new SqlError('ER_DUP_ENTRY', duplicateMessage(e));
  if (e instanceof RangeError && /bytes, at most/.test(e.message))
    return new SqlError('ER_TOO_BIG_ROWSIZE', `Row size too large: ${e.message}`);
  if (e instanceof FileFullError)
    return new SqlError('ER_RECORD_FILE_FULL', `The table '${e.table ?? e.file}' is full`);
  if (e instanceof DiskFullError || e instanceof TempFileError) {
    if (building) return new SqlError('ER_TEMP_FILE_WRITE_FAILURE', 'Temporary file write failure.');
    const dir = e instanceof DiskFullError ? e.directory : 'a temporary file';
    const errno = e instanceof DiskFullError ? 28 : 5;
    const text = e instanceof DiskFullError ? 'No space left on device' : 'Input/output error';
    return new SqlError('ER_ERROR_ON_WRITE', `Error writing file '${dir}' (Errcode: ${errno} "${text}")`);
  }
  // a page that is not what the tree says it is (a bad checksum, an all-zero page in a tree, a
  // broken sibling link): the statement fails naming the page, as InnoDB's "Got error 176 \"Read
  // page with wrong checksum\"" does, and nothing of it stays
  if (e instanceof RedoLogFullError || (e instanceof Error && e.name === 'CorruptionError'))
    return new SqlError('ER_GET_ERRNO', `Got error "${e.message}" from storage engine InnoDB`);
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (e instanceof Error && typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
    const errno = (e as NodeJS.ErrnoException).errno ?? 0;
    const path = (e as NodeJS.ErrnoException).path ?? 'a file';
    return new SqlError(
      'ER_ERROR_ON_WRITE',
      `Error writing file '${path}' (Errcode: ${Math.abs(errno)} "${code}")`,
    );
  }
  return e;
}
