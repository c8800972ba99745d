import type { SqlType } from '../exec/types.js';

/** A user variable's value and the SQL type it was assigned with. */
export interface UserValue {
  readonly t: SqlType;
  readonly v: unknown;
}

/**
 * A session's user variables (`@x`): set by `SET @x = …` and `@x := …`, read anywhere an
 * expression is; names are case-insensitive, an unset variable reads as NULL. Each keeps the type
 * of the value assigned, as MySQL does (an integer stays an integer, a string a string).
 */
export class UserVariables {
  readonly #values = new Map<string, UserValue>();

  get(name: string): UserValue | undefined {
    return this.#values.get(name.toLowerCase());
  }

  set(name: string, t: SqlType, v: unknown): void {
    this.#values.set(name.toLowerCase(), { t, v });
  }

  /** Forgets every variable (a session reset). */
  clear(): void {
    this.#values.clear();
  }
}
