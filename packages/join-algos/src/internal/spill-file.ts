import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import type { RowCodec } from '../codec.js';

const BLOCK = 64 * 1024;

/**
 * A temp file of records, each framed as a 4-byte little-endian length then the codec's bytes.
 * Written through a 64 KiB buffer; read back with {@link readSpill}.
 */
export class SpillWriter<R> {
  readonly path: string;
  readonly #codec: RowCodec<R>;
  #fd: number;
  #bytes: Uint8Array = new Uint8Array(BLOCK);
  #view: DataView = new DataView(this.#bytes.buffer);
  #used = 0;
  /** Records written. */
  count = 0;
  /** Bytes written (frames included). */
  bytes = 0;

  constructor(path: string, codec: RowCodec<R>) {
    this.path = path;
    this.#codec = codec;
    this.#fd = openSync(path, 'w');
  }

  write(row: R): void {
    const len = this.#codec.byteLength(row);
    const need = 4 + len;
    if (this.#used + need > this.#bytes.length) {
      this.flush();
      if (need > this.#bytes.length) {
        this.#bytes = new Uint8Array(need);
        this.#view = new DataView(this.#bytes.buffer);
      }
    }
    this.#view.setUint32(this.#used, len, true);
    this.#codec.write(row, this.#bytes, this.#view, this.#used + 4);
    this.#used += need;
    this.count++;
    this.bytes += need;
  }

  flush(): void {
    let off = 0;
    while (off < this.#used) off += writeSync(this.#fd, this.#bytes, off, this.#used - off);
    this.#used = 0;
  }

  /** Flush and close; idempotent. */
  close(): void {
    if (this.#fd < 0) return;
    this.flush();
    closeSync(this.#fd);
    this.#fd = -1;
  }
}

/** Call `each(row, n)` for every record of a spill file, in write order (n counts from 0). */
export function readSpill<R>(path: string, codec: RowCodec<R>, each: (row: R, n: number) => void): void {
  const fd = openSync(path, 'r');
  try {
    let bytes = new Uint8Array(BLOCK);
    let view = new DataView(bytes.buffer);
    let have = 0; // bytes valid in `bytes`
    let pos = 0; // next unread byte
    let n = 0;
    let eof = false;
    for (;;) {
      // Need a full frame header and body in [pos, have); else move the tail down and read more.
      const avail = have - pos;
      const len = avail >= 4 ? view.getUint32(pos, true) : -1;
      if (len >= 0 && avail >= 4 + len) {
        each(codec.read(bytes, view, pos + 4, len), n++);
        pos += 4 + len;
        continue;
      }
      if (eof) {
        if (avail !== 0) throw new Error(`spill file ${path}: truncated record at the end`);
        return;
      }
      if (len >= 0 && 4 + len > bytes.length) {
        const grown = new Uint8Array(4 + len);
        grown.set(bytes.subarray(pos, have));
        bytes = grown;
        view = new DataView(bytes.buffer);
      } else {
        bytes.copyWithin(0, pos, have);
      }
      have = avail;
      pos = 0;
      const got = readSync(fd, bytes, have, bytes.length - have, null);
      if (got === 0) eof = true;
      have += got;
    }
  } finally {
    closeSync(fd);
  }
}
