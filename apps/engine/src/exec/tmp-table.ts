import { FileSort } from './filesort.js';
import type { StatusCounters } from './status.js';
import type { SqlType } from './types.js';

/**
 * The internal temporary table of a GROUP BY or a DISTINCT: keys held in memory (a Map) while the
 * table's estimated size stays within `min(tmp_table_size, max_heap_table_size)`, as MySQL's
 * in-memory temporary table; past that the table goes to disk, as MySQL converts it to an
 * on-disk table (`Created_tmp_disk_tables` + 1). From then on a row whose key is already in
 * memory still meets its group there; a row with a new key is written, with its frame, to a
 * filesort keyed by the key's values (merge-sort-index's external sorter: sorted runs in temp
 * files past `sort_buffer_size`, then a k-way merge). Draining that sort yields the spilled rows
 * with equal keys adjacent, so each spilled group is read and finished one at a time; a key is
 * either in memory or on disk, never both, so the answer is the in-memory one.
 *
 * The size of an entry is an estimate: 64 bytes of overhead, 16 per frame slot kept, 2 per
 * character of the key, `extra` per entry (aggregate states).
 */
export class TmpTable {
  readonly limit: number;
  readonly #keyTypes: readonly SqlType[];
  readonly #sortBufferSize: number;
  readonly #status: StatusCounters;
  readonly #entryBase: number;
  #bytes = 0;
  #disk: FileSort | null = null;
  /** Rows written to disk. */
  spilled = 0;

  constructor(
    keyTypes: readonly SqlType[],
    limit: number,
    sortBufferSize: number,
    status: StatusCounters,
    slots: number,
    extra = 0,
  ) {
    this.#keyTypes = keyTypes;
    this.limit = limit;
    this.#sortBufferSize = sortBufferSize;
    this.#status = status;
    this.#entryBase = 64 + 16 * slots + extra;
  }

  /** Whether new keys must go to disk (the in-memory part is full). */
  get full(): boolean {
    return this.#bytes > this.limit;
  }

  /** Whether the table went to disk. */
  get onDisk(): boolean {
    return this.#disk !== null;
  }

  /** Account for a new in-memory entry with key text `key`. */
  grew(key: string): void {
    this.#bytes += this.#entryBase + 2 * key.length;
  }

  /** Write a row with a new key to disk: `values` are the key's values, `key` its text. */
  spill(values: readonly unknown[], key: string | number, payload: readonly unknown[]): void {
    if (this.#disk === null) {
      this.#disk = new FileSort(
        this.#keyTypes,
        new Array<boolean>(this.#keyTypes.length).fill(false),
        this.#sortBufferSize,
      );
      this.#status.add('Created_tmp_disk_tables', 1);
    }
    this.#disk.add(values, [key, payload]);
    this.spilled++;
  }

  /**
   * The spilled rows in key order, equal keys adjacent: `each(key, payload, first)` with `first`
   * true on a key's first row; `each` returns false to stop. Removes the temp files.
   */
  drain(each: (key: string | number, payload: unknown[], first: boolean) => boolean): void {
    const disk = this.#disk;
    if (disk === null) return;
    this.#disk = null;
    let last: string | number | undefined;
    // the on-disk table's own sort: not a filesort of the query, so no Sort_* counters
    disk.drain((r) => {
      const key = r[0] as string | number;
      const first = key !== last;
      last = key;
      return each(key, r[1] as unknown[], first);
    });
  }

  /** Drop what is on disk (an error or an early stop). */
  close(): void {
    this.#disk?.close();
    this.#disk = null;
  }
}
