/** The file is not an enginekit database (no magic at the start of page 0, or too short). */
export class NotADatabaseError extends Error {
  override readonly name = 'NotADatabaseError';
  readonly file: string;
  constructor(file: string, why: string) {
    super(`${file} is not an enginekit database: ${why}`);
    this.file = file;
  }
}

/** The file was written in another format version than the one this code reads. */
export class FormatVersionError extends Error {
  override readonly name = 'FormatVersionError';
  readonly file: string;
  readonly version: number;
  constructor(file: string, version: number, supported: number) {
    super(`${file} has format version ${version}; this enginekit reads version ${supported}`);
    this.file = file;
    this.version = version;
  }
}

/**
 * A second row with the same primary or unique key (MySQL's ER_DUP_ENTRY, 1062). Thrown before
 * anything was changed: the table and all its indexes are as they were.
 */
export class DuplicateEntryError extends Error {
  override readonly name = 'DuplicateEntryError';
  readonly table: string;
  readonly index: string;
  constructor(table: string, index: string, key: string) {
    super(`Duplicate entry '${key}' for key '${table}.${index}'`);
    this.table = table;
    this.index = index;
  }
}

/** A catalog lookup failed: no such table, index or column. */
export class NoSuchObjectError extends Error {
  override readonly name = 'NoSuchObjectError';
}

/**
 * The file's length does not match page 0: cut inside a page, shorter than the page count the
 * header records (truncated), or longer (pages written after the header: not closed cleanly).
 */
export class FileLengthError extends Error {
  override readonly name = 'FileLengthError';
  readonly file: string;
  /** The first page that is missing, cut short, or not covered by the header. */
  readonly page: number;
  constructor(file: string, message: string, page: number) {
    super(`${file} ${message}`);
    this.file = file;
    this.page = page;
  }
}
