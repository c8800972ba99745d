import type { SqlError } from '../sql/errors.js';

/** One row of SHOW WARNINGS: level, MySQL error number, message. */
export type Diagnostic = readonly ['Note' | 'Warning' | 'Error', number, string];

/**
 * A session's diagnostics area, as MySQL keeps it: the notes, warnings and error of the last
 * statement, which SHOW WARNINGS, SHOW ERRORS, SHOW COUNT(*) WARNINGS and `@@warning_count` read.
 * Every statement starts a new list, except those diagnostic statements themselves, which leave
 * the previous statement's list in place (so SHOW WARNINGS can be repeated).
 */
export class Diagnostics {
  #current: Diagnostic[] = [];
  #last: readonly Diagnostic[] = [];
  #previous: readonly Diagnostic[] = [];

  /** A statement starts: its list is empty; the previous statement's stays readable. */
  begin(): void {
    this.#previous = this.#last;
    this.#current = [];
  }

  add(level: Diagnostic[0], code: number, message: string): void {
    this.#current.push([level, code, message]);
  }

  /** Notes and warnings of the statement running now. */
  get count(): number {
    return this.#current.length;
  }

  /** The statement failed: its error joins its list. */
  fail(e: SqlError): void {
    this.#current.push(['Error', e.errno, e.message]);
  }

  /** The statement ended; a diagnostic statement (`keep`) leaves the previous list as the last. */
  end(keep: boolean): void {
    this.#last = keep ? this.#previous : this.#current;
  }

  /** The diagnostics of the last statement that ended. */
  get last(): readonly Diagnostic[] {
    return this.#last;
  }

  /** What SHOW WARNINGS lists while it runs: the previous statement's diagnostics. */
  get previous(): readonly Diagnostic[] {
    return this.#previous;
  }
}
