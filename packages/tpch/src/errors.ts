/**
 * A malformed `.tbl` line. The message names the file, the 1-based line, the column and the
 * offending value (non-printable and non-UTF-8 bytes shown as `\xNN`).
 */
export class TblFormatError extends Error {
  override readonly name = 'TblFormatError';
  readonly file: string;
  readonly line: number;
  readonly column: string;
  readonly value: string;
  readonly reason: string;

  constructor(file: string, line: number, column: string, value: string, reason: string) {
    super(`${file}:${line}: column ${column}: ${reason}: '${value}'`);
    this.file = file;
    this.line = line;
    this.column = column;
    this.value = value;
    this.reason = reason;
  }
}
