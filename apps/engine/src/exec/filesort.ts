import { deserialize, serialize } from 'node:v8';
import { ExternalSorter } from '@enginekit/merge-sort-index';
import type { SqlType } from './types.js';

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
 */
export class FileSort {
  readonly #types: readonly SqlType[];
  readonly #desc: readonly boolean[];
  readonly #sorter: ExternalSorter;
  #buf = new Uint8Array(256);
  #p = 0;
  rows = 0;

  constructor(types: readonly SqlType[], desc: readonly boolean[], sortBufferSize: number) {
    this.#types = types;
    this.#desc = desc;
    this.#sorter = new ExternalSorter({
      sortBufferSize: Math.min(Math.max(sortBufferSize, 65536), 1 << 30),
      allowLargeSortBuffer: true,
      mergeMode: 'kway',
      kwayReadSize: 4096,
    });
  }

  add(keys: readonly unknown[], row: readonly unknown[]): void {
    this.#p = 0;
    for (let i = 0; i < keys.length; i++) {
      const start = this.#p;
      this.#field(keys[i], this.#types[i]!);
      if (this.#desc[i]) for (let j = start; j < this.#p; j++) this.#buf[j] = ~this.#buf[j]! & 0xff;
    }
    this.#sorter.add(this.#buf.slice(0, this.#p), serialize(row));
    this.rows++;
  }

  /** Rows in order; returns the merge passes the sort took. */
  drain(emit: (row: unknown[]) => boolean): number {
    let stop = false;
    try {
      this.#sorter.drain((_k, v) => {
        if (stop) return;
        if (!emit(deserialize(v) as unknown[])) stop = true;
      });
    } finally {
      this.#sorter.close();
    }
    return this.#sorter.stats.passes;
  }

  close(): void {
    this.#sorter.close();
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
        this.#int64(BigInt(v as number | bigint));
        return;
      case 'dec':
        this.#decimal(v as bigint);
        return;
      case 'dbl':
        this.#double(v as number);
        return;
      default: {
        const bytes = Buffer.from(String(v), 'utf8');
        this.#need(bytes.length * 2 + 2);
        for (const b of bytes) {
          this.#byte(b);
          if (b === 0) this.#byte(0xff);
        }
        this.#byte(0);
        this.#byte(0);
      }
    }
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

const F64 = new Float64Array(1);
const F64B = new Uint8Array(F64.buffer);
