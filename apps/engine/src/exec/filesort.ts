import { deserialize, serialize } from 'node:v8';
import { ExternalSorter } from '@enginekit/merge-sort-index';
import { serializedSizeBound } from './internal/serialized-size.js';
import type { SqlType } from './types.js';

/** The merge read size, which is also the largest record the external sorter takes. */
const MAX_RECORD = 4096;

/**
 * Filesort: rows are sorted by keys encoded so that byte order is ORDER BY order, inside a sort
 * buffer of `sort_buffer_size` bytes; past it the sorter writes sorted runs to temp files and
 * merges them (merge-sort-index's ExternalSorter, loser-tree merge), each merge pass counted in
 * `Sort_merge_passes`. Equal keys keep their arrival order.
 *
 * Key encoding per ORDER BY item: a tag byte (0x00 NULL, 0x01 value, so NULLs sort first), then
 * an integer as 8 bytes big-endian with the sign bit flipped (a bigint beyond 64 bits cannot
 * occur), a DECIMAL as class byte + magnitude bytes (as btree-sampler's KeyCodec), a DOUBLE as
 * its IEEE-754 bytes made monotonic, a DATE as an integer, a string as its UTF-8 bytes with 0x00
 * escaped as 0x00 0xFF and ended by 0x00 0x00. A DESC item has every byte of its field inverted,
 * which also puts its NULLs last. The row itself travels as the record's value (v8 serialization).
 *
 * A small sort never meets the external sorter: while an upper bound on what the rows would take
 * in its buffer stays within `sort_buffer_size`, they are held as they came and sorted in memory
 * by the same key bytes (the sorter would have sorted them in memory as well, so the order and
 * the counters are the same). Once the bound passes the buffer, the rows held so far go to the
 * external sorter in arrival order and every later row follows them there.
 *
 * With `keep` (the first rows a LIMIT needs, its offset included) the rows held are cut back to
 * the first `keep` in sort order whenever they reach twice that many, so a small LIMIT over many
 * rows sorts in memory what it returns (as MySQL's priority-queue filesort). A row cut had `keep`
 * rows before it and after them only better ones can come, so none of the rows cut is among the
 * first `keep`; equal keys keep their arrival order, since the held rows stay in sort order and
 * later rows arrive after them. If the held rows still outgrow the buffer, they and every later
 * row go to the external sorter as above.
 */
export class FileSort {
  readonly #types: readonly SqlType[];
  readonly #desc: readonly boolean[];
  readonly #bufferSize: number;
  /** The external sorter, made once the rows might not fit the sort buffer (null until then). */
  #sorter: ExternalSorter | null = null;
  #buf = new Uint8Array(256);
  #p = 0;
  // In-memory rows while they surely fit: keys packed in #keys (row i's key at
  // #keyAt[i] .. #keyAt[i + 1]), rows as given, and an upper bound on the bytes the sort buffer
  // would hold for them.
  #keys = new Uint8Array(1024);
  #keyAt = new Int32Array(65);
  #held: unknown[][] = [];
  /** Each held row's bound in the sort buffer (what #heldBytes sums). */
  #sizes: number[] = [];
  #heldBytes = 0;
  /** Rows the caller reads at most (undefined: all): held rows are cut back to this many. */
  readonly #keep: number | undefined;
  rows = 0;

  /**
   * The rows the sort gives back, as MariaDB's filesort reports them (Sort_rows): every row added,
   * or no more than `keep` when a LIMIT bounds it (its rows, whether a priority queue or a full
   * sort produced them).
   */
  get sortedRows(): number {
    return this.#keep === undefined ? this.rows : Math.min(this.rows, this.#keep);
  }

  constructor(types: readonly SqlType[], desc: readonly boolean[], sortBufferSize: number, keep?: number) {
    this.#types = types;
    this.#desc = desc;
    this.#bufferSize = Math.min(Math.max(sortBufferSize, 65536), 1 << 30);
    this.#keep = keep === undefined ? undefined : Math.max(0, Math.floor(keep));
  }

  /**
   * Add a row under its ORDER BY key values.
   * REQUIRES: `row` is not changed afterwards (an in-memory sort keeps it as given).
   */
  add(keys: readonly unknown[], row: readonly unknown[]): void {
    this.#p = 0;
    for (let i = 0; i < keys.length; i++) {
      const start = this.#p;
      this.#field(keys[i], this.#types[i]!);
      if (this.#desc[i]) for (let j = start; j < this.#p; j++) this.#buf[j] = ~this.#buf[j]! & 0xff;
    }
    this.rows++;
    if (this.#sorter === null) {
      // The external sorter takes a record while 24 bytes per record (its entry) plus the records'
      // encoded bytes stay within the buffer, and refuses one larger than a merge read (4096
      // bytes). With an upper bound on the record's size in place of its real one, a row kept
      // here is one the sorter would have kept in memory too: same order, no merge pass.
      const kl = this.#p;
      const record = 5 + kl + 5 + serializedSizeBound(row);
      const n = this.#held.length;
      if (record <= MAX_RECORD && 24 * (n + 1) + this.#heldBytes + record + 4 <= this.#bufferSize) {
        this.#hold(kl, row);
        this.#sizes.push(record);
        this.#heldBytes += record;
        const keep = this.#keep;
        if (keep !== undefined && n + 1 >= 2 * Math.max(keep, 16)) this.#cut(keep);
        return;
      }
      this.#toSorter();
    }
    this.#sorter!.add(this.#buf.subarray(0, this.#p), serialize(row));
  }

  /** Rows in order; returns the merge passes the sort took. */
  drain(emit: (row: unknown[]) => boolean): number {
    if (this.#sorter === null) {
      const held = this.#held;
      this.#held = [];
      this.#sizes = [];
      const order = this.#order(held.length);
      for (let i = 0; i < order.length; i++) if (!emit(held[order[i]!]!)) break;
      return 0;
    }
    const sorter = this.#sorter;
    let stop = false;
    try {
      sorter.drain((_k, v) => {
        if (stop) return;
        if (!emit(deserialize(v) as unknown[])) stop = true;
      });
    } finally {
      sorter.close();
    }
    return sorter.stats.passes;
  }

  close(): void {
    this.#held = [];
    this.#sizes = [];
    this.#sorter?.close();
  }

  /** Cut the held rows back to the first `keep` in sort order, held in that order. */
  #cut(keep: number): void {
    const held = this.#held;
    const order = this.#order(held.length);
    const oldKeys = this.#keys;
    const oldAt = this.#keyAt;
    const keys = new Uint8Array(oldKeys.length);
    const at = new Int32Array(oldAt.length);
    const rows: unknown[][] = [];
    const sizes: number[] = [];
    let bytes = 0;
    let p = 0;
    for (let i = 0; i < keep && i < order.length; i++) {
      const r = order[i]!;
      const from = oldAt[r]!;
      const to = oldAt[r + 1]!;
      keys.set(oldKeys.subarray(from, to), p);
      p += to - from;
      at[i + 1] = p;
      rows.push(held[r]!);
      sizes.push(this.#sizes[r]!);
      bytes += this.#sizes[r]!;
    }
    this.#keys = keys;
    this.#keyAt = at;
    this.#held = rows;
    this.#sizes = sizes;
    this.#heldBytes = bytes;
  }

  /** Keep a row in memory with the key in #buf[0, kl). */
  #hold(kl: number, row: readonly unknown[]): void {
    const n = this.#held.length;
    if (n + 2 > this.#keyAt.length) {
      const at = new Int32Array(this.#keyAt.length * 2);
      at.set(this.#keyAt);
      this.#keyAt = at;
    }
    const from = this.#keyAt[n]!;
    if (from + kl > this.#keys.length) {
      const k = new Uint8Array(Math.max(2 * this.#keys.length, from + kl));
      k.set(this.#keys.subarray(0, from));
      this.#keys = k;
    }
    const keys = this.#keys;
    const buf = this.#buf;
    for (let i = 0; i < kl; i++) keys[from + i] = buf[i]!;
    this.#keyAt[n + 1] = from + kl;
    this.#held.push(row as unknown[]);
  }

  /** The held rows' indexes in key order (memcmp of the keys; equal keys in arrival order). */
  #order(n: number): number[] {
    const order = new Array<number>(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const keys = this.#keys;
    const at = this.#keyAt;
    order.sort((a, b) => {
      let i = at[a]!;
      let j = at[b]!;
      const ie = at[a + 1]!;
      const je = at[b + 1]!;
      for (; i < ie && j < je; i++, j++) {
        const d = keys[i]! - keys[j]!;
        if (d !== 0) return d;
      }
      return ie - i - (je - j) || a - b;
    });
    return order;
  }

  /** Move the held rows into an external sorter, in arrival order, and sort through it from now on. */
  #toSorter(): void {
    const sorter = new ExternalSorter({
      innodb_sort_buffer_size: this.#bufferSize,
      allowLargeSortBuffer: true,
      mergeMode: 'kway',
      kwayReadSize: MAX_RECORD,
    });
    this.#sorter = sorter;
    const held = this.#held;
    this.#held = [];
    this.#sizes = [];
    try {
      for (let i = 0; i < held.length; i++)
        sorter.add(this.#keys.subarray(this.#keyAt[i]!, this.#keyAt[i + 1]!), serialize(held[i]));
    } catch (e) {
      sorter.close();
      throw e;
    }
  }

  #need(n: number): void {
    if (this.#p + n <= this.#buf.length) return;
    const b = new Uint8Array((this.#p + n) * 2);
    b.set(this.#buf.subarray(0, this.#p));
    this.#buf = b;
  }

  #byte(x: number): void {
    this.#buf[this.#p++] = x;
  }

  #field(v: unknown, t: SqlType): void {
    this.#need(16);
    if (v === null || v === undefined) {
      this.#byte(0);
      return;
    }
    this.#byte(1);
    switch (t.kind) {
      case 'int':
      case 'date':
      case 'datetime':
      case 'time':
        // BIGINT UNSIGNED: 0 … 2^64 − 1 written as v − 2^63, which #int64 keeps in order
        if (t.unsigned === true) this.#int64(BigInt(v as number | bigint) - (1n << 63n));
        else if (typeof v === 'number' && Number.isSafeInteger(v)) this.#safeInt(v);
        else this.#int64(BigInt(v as number | bigint));
        return;
      case 'dec':
        this.#decimal(v as bigint);
        return;
      case 'dbl':
        this.#double(v as number);
        return;
      default: {
        const text = String(v);
        // UTF-8 takes at most 3 bytes per UTF-16 unit; a 0x00 byte (rare) is escaped afterwards
        this.#need(3 * text.length + 2);
        const start = this.#p;
        const written = UTF8.encodeInto(text, this.#buf.subarray(start)).written;
        let zeros = 0;
        for (let i = start; i < start + written; i++) if (this.#buf[i] === 0) zeros++;
        if (zeros > 0) {
          const bytes = this.#buf.slice(start, start + written);
          this.#need(written + zeros + 2);
          for (const b of bytes) {
            this.#byte(b);
            if (b === 0) this.#byte(0xff);
          }
        } else this.#p = start + written;
        this.#byte(0);
        this.#byte(0);
      }
    }
  }

  /** An integer within ±2^53 as #int64 writes it, without a BigInt. */
  #safeInt(x: number): void {
    const hi = Math.floor(x / 4294967296);
    const lo = x - hi * 4294967296;
    const h = (hi ^ 0x80000000) >>> 0;
    const b = this.#buf;
    const p = this.#p;
    b[p] = h >>> 24;
    b[p + 1] = (h >>> 16) & 0xff;
    b[p + 2] = (h >>> 8) & 0xff;
    b[p + 3] = h & 0xff;
    b[p + 4] = lo >>> 24;
    b[p + 5] = (lo >>> 16) & 0xff;
    b[p + 6] = (lo >>> 8) & 0xff;
    b[p + 7] = lo & 0xff;
    this.#p = p + 8;
  }

  #int64(x: bigint): void {
    let u = BigInt.asUintN(64, x) ^ (1n << 63n);
    for (let i = 7; i >= 0; i--) {
      this.#buf[this.#p + i] = Number(u & 0xffn);
      u >>= 8n;
    }
    this.#p += 8;
  }

  #decimal(v: bigint): void {
    const neg = v < 0n;
    let mag = neg ? -v : v;
    const bytes: number[] = [];
    while (mag > 0n) {
      bytes.unshift(Number(mag & 0xffn));
      mag >>= 8n;
    }
    this.#need(bytes.length + 1);
    this.#byte(neg ? 0x7f - bytes.length : 0x80 + bytes.length);
    for (const b of bytes) this.#byte(neg ? ~b & 0xff : b);
  }

  #double(x: number): void {
    F64[0] = x === 0 ? 0 : x;
    const neg = (F64B[7]! & 0x80) !== 0;
    for (let i = 0; i < 8; i++) {
      const b = F64B[7 - i]!;
      this.#byte(neg ? ~b & 0xff : i === 0 ? b ^ 0x80 : b);
    }
  }
}

const UTF8 = new TextEncoder();
const F64 = new Float64Array(1);
const F64B = new Uint8Array(F64.buffer);
