import { TEMPORARY_TABLE_PREFIX } from '../storage/database.js';

/**
 * A session's TEMPORARY tables: ordinary tables of the shared database file under hidden storage
 * names (`#tmp-<connection id>-<n>`: a `#` name no listing shows and no other session can name),
 * and the names the session gave them. A temporary table hides a table or view of the same name
 * from its session only; it goes when the session ends, and an open after a crash drops any left
 * behind (Database's orphan sweep). Renaming one changes only this map, never the stored name.
 *
 * Names here are storage names (storage/schema-name.ts): `visible` is what the session's
 * statements resolve `db.t` to, `stored` the hidden table's own name.
 */
export class TemporaryTables {
  readonly #connectionId: number;
  /** Visible storage name → hidden storage name. */
  readonly #stored = new Map<string, string>();
  /** Hidden storage name → visible storage name. */
  readonly #visible = new Map<string, string>();
  #next = 1;
  #version = 0;

  constructor(connectionId: number) {
    this.#connectionId = connectionId;
  }

  /** Changes whenever a temporary table is made, dropped or renamed (prepared statements compare it). */
  get version(): number {
    return this.#version;
  }

  get size(): number {
    return this.#stored.size;
  }

  /** The hidden table a visible name stands for in this session, if it is a temporary table. */
  storedName(visible: string): string | undefined {
    return this.#stored.size === 0 ? undefined : this.#stored.get(visible);
  }

  /** The name this session gave the hidden table `stored` (undefined: not one of its tables). */
  visibleName(stored: string): string | undefined {
    return this.#visible.get(stored);
  }

  /** A hidden storage name for a new temporary table (`taken`: names already in the file). */
  newStoredName(taken: (name: string) => boolean): string {
    for (;;) {
      const name = `${TEMPORARY_TABLE_PREFIX}${this.#connectionId}-${this.#next++}`;
      if (!taken(name)) return name;
    }
  }

  add(visible: string, stored: string): void {
    this.#stored.set(visible, stored);
    this.#visible.set(stored, visible);
    this.#version++;
  }

  /** Forgets the temporary table named `visible`; returns its hidden name. */
  remove(visible: string): string | undefined {
    const stored = this.#stored.get(visible);
    if (stored === undefined) return undefined;
    this.#stored.delete(visible);
    this.#visible.delete(stored);
    this.#version++;
    return stored;
  }

  /** The temporary table `from` is called `to` from now on. */
  rename(from: string, to: string): void {
    const stored = this.remove(from);
    if (stored !== undefined) this.add(to, stored);
  }

  /** Every temporary table as [visible name, hidden name]. */
  entries(): [string, string][] {
    return [...this.#stored];
  }
}
