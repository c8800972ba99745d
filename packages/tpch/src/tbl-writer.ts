import { closeSync, openSync, writeSync } from 'node:fs';

const PIPE = 0x7c;
const NEWLINE = 0x0a;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;

/** Default output buffer per file (bytes). */
export const WRITE_BUFFER_SIZE: number = 1 << 20;

/**
 * Where a {@link TblWriter} sends its bytes when it does not write a file: `write` receives each
 * full buffer (a view that is reused afterwards: copy what you keep), `close` is called once at
 * the end.
 */
export interface TblSink {
  write(bytes: Uint8Array): void;
  close?(): void;
}

/**
 * Appends dbgen-format fields (`print.c`: each field followed by `|`, rows ended by `\n`) into a
 * fixed byte buffer and writes it to a file (or hands it to a {@link TblSink}) when full. No
 * per-row allocation.
 */
export class TblWriter {
  readonly #buf: Uint8Array;
  readonly #fd: number;
  readonly #sink: TblSink | undefined;
  readonly #digits = new Uint8Array(24);
  #pos = 0;
  #bytes = 0;

  /** Opens (truncates) the file `target`, or writes to the sink `target`. */
  constructor(target: string | TblSink, bufferSize: number = WRITE_BUFFER_SIZE) {
    if (!Number.isInteger(bufferSize) || bufferSize < 1024) {
      throw new RangeError(`bufferSize must be an integer ≥ 1024, got ${bufferSize}`);
    }
    this.#buf = new Uint8Array(bufferSize);
    if (typeof target === 'string') {
      this.#fd = openSync(target, 'w');
      this.#sink = undefined;
    } else {
      this.#fd = -1;
      this.#sink = target;
    }
  }

  /** Bytes written so far (flushed or buffered). */
  get bytesWritten(): number {
    return this.#bytes + this.#pos;
  }

  #room(n: number): void {
    if (this.#pos + n > this.#buf.length) this.flush();
  }

  /** A decimal integer field (`%lld`). REQUIRES: a safe integer. */
  int(v: number): void {
    this.#room(24);
    this.#putInt(v);
    this.#buf[this.#pos++] = PIPE;
  }

  #putInt(v: number): void {
    const buf = this.#buf;
    if (v < 0) {
      buf[this.#pos++] = MINUS;
      v = -v;
    }
    if (v < 10) {
      buf[this.#pos++] = ZERO + v;
      return;
    }
    const d = this.#digits;
    let n = 0;
    while (v > 0) {
      const q = Math.floor(v / 10);
      d[n++] = ZERO + (v - q * 10);
      v = q;
    }
    while (n > 0) buf[this.#pos++] = d[--n]!;
  }

  /** An integer zero-padded to `width` digits, with no separator (names like Customer#000000001). */
  padded(v: number, width: number): void {
    this.#room(24);
    const buf = this.#buf;
    const d = this.#digits;
    let n = 0;
    while (v > 0 || n < width) {
      const q = Math.floor(v / 10);
      d[n++] = ZERO + (v - q * 10);
      v = q;
    }
    while (n > 0) buf[this.#pos++] = d[--n]!;
  }

  /** A money field from integer cents, dbgen `DT_MONEY`: `[-]dollars.cc`. */
  money(cents: number): void {
    this.#room(24);
    const buf = this.#buf;
    if (cents < 0) {
      buf[this.#pos++] = MINUS;
      cents = -cents;
    }
    const dollars = Math.floor(cents / 100);
    const c = cents - dollars * 100;
    this.#putInt(dollars);
    buf[this.#pos++] = DOT;
    buf[this.#pos++] = ZERO + Math.floor(c / 10);
    buf[this.#pos++] = ZERO + (c % 10);
    buf[this.#pos++] = PIPE;
  }

  /** Raw bytes with no separator. */
  bytes(src: Uint8Array, start = 0, end: number = src.length): void {
    const n = end - start;
    if (n > this.#buf.length) {
      this.flush();
      this.#out(src, start, n);
      this.#bytes += n;
      return;
    }
    this.#room(n);
    const buf = this.#buf;
    if (n <= 64) {
      // short fields (most comments, names, dates): a loop beats creating a subarray view
      let p = this.#pos;
      for (let i = start; i < end; i++) buf[p++] = src[i]!;
      this.#pos = p;
    } else {
      buf.set(src.subarray(start, end), this.#pos);
      this.#pos += n;
    }
  }

  /** ASCII text with no separator. */
  ascii(text: string): void {
    this.#room(text.length);
    for (let i = 0; i < text.length; i++) this.#buf[this.#pos++] = text.charCodeAt(i);
  }

  /** One byte with no separator. */
  byte(b: number): void {
    this.#room(1);
    this.#buf[this.#pos++] = b;
  }

  /** The field separator `|`. */
  sep(): void {
    this.#room(1);
    this.#buf[this.#pos++] = PIPE;
  }

  /** End of row `\n`. */
  end(): void {
    this.#room(1);
    this.#buf[this.#pos++] = NEWLINE;
  }

  #out(src: Uint8Array, start: number, length: number): void {
    if (this.#sink !== undefined) {
      this.#sink.write(src.subarray(start, start + length));
      return;
    }
    let off = 0;
    while (off < length) off += writeSync(this.#fd, src, start + off, length - off);
  }

  /** Writes out what is buffered. */
  flush(): void {
    if (this.#pos > 0) this.#out(this.#buf, 0, this.#pos);
    this.#bytes += this.#pos;
    this.#pos = 0;
  }

  /** Flushes, then closes the file (or calls the sink's `close`). */
  close(): void {
    try {
      this.flush();
    } finally {
      if (this.#sink === undefined) closeSync(this.#fd);
      else this.#sink.close?.();
    }
  }
}
