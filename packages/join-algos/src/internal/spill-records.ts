import type { SpillDirectory } from '@enginekit/common';
import type { RowCodec } from '../codec.js';

const BLOCK = 64 * 1024;

/**
 * Records appended to one spill file of a {@link SpillDirectory} (a 0600 file in the
 * directory's private temp folder), each framed as a 4-byte little-endian length then the
 * codec's bytes. Written through a 64 KiB buffer; read back with {@link readSpill}. A full disk
 * is the directory's `DiskFullError`; the file goes when the directory is removed.
 */
export class SpillWriter<R> {
  readonly #dir: SpillDirectory;
  readonly #codec: RowCodec<R>;
  readonly fd: number;
  #bytes: Uint8Array = new Uint8Array(BLOCK);
  #view: DataView = new DataView(this.#bytes.buffer);
  #used = 0;
  /** Records written. */
  count = 0;
  /** Bytes written (frames included). */
  bytes = 0;

  constructor(dir: SpillDirectory, codec: RowCodec<R>) {
    this.#dir = dir;
    this.#codec = codec;
    this.fd = dir.open();
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

  /** Write out what is buffered (at the file's end). */
  flush(): void {
    if (this.#used === 0) return;
    this.#dir.write(this.fd, this.#bytes, 0, this.#used, this.bytes - this.#used);
    this.#used = 0;
  }
}

/**
 * Call `each(row, n)` for every record of a flushed spill file, in write order (n counts from 0).
 * REQUIRES: `writer.flush()` was called after the last write.
 */
export function readSpill<R>(
  dir: SpillDirectory,
  writer: SpillWriter<unknown>,
  codec: RowCodec<R>,
  each: (row: R, n: number) => void,
): void {
  let bytes = new Uint8Array(BLOCK);
  let view = new DataView(bytes.buffer);
  let have = 0; // bytes valid in `bytes`
  let pos = 0; // next unread byte
  let filePos = 0; // next file byte to read
  let n = 0;
  for (;;) {
    // Need a full frame header and body in [pos, have); else move the tail down and read more.
    const avail = have - pos;
    const len = avail >= 4 ? view.getUint32(pos, true) : -1;
    if (len >= 0 && avail >= 4 + len) {
      each(codec.read(bytes, view, pos + 4, len), n++);
      pos += 4 + len;
      continue;
    }
    if (filePos >= writer.bytes) {
      if (avail !== 0) throw new Error('spill file: truncated record at the end');
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
    const got = dir.read(
      writer.fd,
      bytes,
      have,
      Math.min(bytes.length - have, writer.bytes - filePos),
      filePos,
    );
    if (got === 0) throw new Error('spill file: shorter than what was written');
    filePos += got;
    have += got;
  }
}
