import type { RowSink } from '../session/result.js';
import type { SqlType } from '../exec/types.js';
import type { ResultField } from '../exec/result-fields.js';
import { type ColumnMeta, resultColumnMeta } from './column-types.js';
import { writeBinaryRow } from './packets/binary-row.js';
import { writeColumnDefinition } from './packets/column-definition.js';
import { writeEof } from './packets/eof.js';
import { writeTextRow } from './packets/text-row.js';
import type { PacketWriter } from './wire.js';

/** A chunk is sent once it holds this many bytes of packets (or {@link CHUNK_ROWS} rows). */
export const CHUNK_BYTES: number = 64 * 1024;
/** A chunk is sent once it holds this many rows, however small they are. */
export const CHUNK_ROWS = 4096;

/** Sends the bytes of a chunk of a result to the client (may wait until the client reads). */
export type ChunkOut = (bytes: Buffer) => void;

/**
 * A result set written to the wire as the executor produces it: the column count, the column
 * definitions and their EOF at `begin`, then each row (text or binary protocol) into the
 * command's packet writer. Whenever the writer holds {@link CHUNK_BYTES} bytes or
 * {@link CHUNK_ROWS} rows, they go out through `out` as one chunk, so a result of any size keeps
 * no more than one chunk (and the row being written) on the server's side. What is left when
 * the statement ends (the last rows, then the EOF or an ERR) is the command's reply.
 *
 * A statement that waits for a lock runs again from its start: the rows already sent are not sent
 * twice ({@link rewind}), the rows still held are dropped and produced again.
 */
export class WireRowSink implements RowSink {
  readonly #w: PacketWriter;
  readonly #binary: boolean;
  readonly #out: ChunkOut;
  #cols: ColumnMeta[] = [];
  /** Rows in the writer now (not sent yet). */
  #held = 0;
  /** Rows sent in chunks so far. */
  #sent = 0;
  /** Rows to skip at a run again: the run before sent them. */
  #skip = 0;
  /** A chunk has gone out: the reply continues what the client has read. */
  #flushed = false;
  /** The column definitions are written (a result set has begun). */
  #begun = false;
  /** Called when the first chunk is about to go out (the statement starts sending data). */
  onFirstChunk: (() => void) | undefined;

  constructor(w: PacketWriter, binary: boolean, out: ChunkOut) {
    this.#w = w;
    this.#binary = binary;
    this.#out = out;
  }

  /** A result set has begun (an error now ends it with an ERR after its rows). */
  get begun(): boolean {
    return this.#begun;
  }

  /** Some of the result has gone to the client: the statement cannot start it again. */
  get flushed(): boolean {
    return this.#flushed;
  }

  /** Rows sent or held so far. */
  get rows(): number {
    return this.#sent + this.#held;
  }

  begin(
    columns: readonly string[],
    types: readonly SqlType[],
    fields?: readonly (ResultField | undefined)[],
  ): void {
    if (this.#begun) return; // a run again after a lock wait: the header is out already
    this.beginWith(columns.map((name, i) => resultColumnMeta(name, types[i]!, fields?.[i])));
  }

  /** Begins a result set of columns described already (a result built whole: SHOW, EXPLAIN). */
  beginWith(cols: ColumnMeta[]): void {
    this.#cols = cols;
    const w = this.#w;
    w.begin().lenenc(this.#cols.length).end();
    for (const c of this.#cols) writeColumnDefinition(w, c);
    writeEof(w);
    this.#begun = true;
  }

  row(values: unknown[]): void {
    if (this.#skip > 0) {
      this.#skip--;
      return;
    }
    const w = this.#w;
    const pos = w.pos;
    const seq = w.seq;
    try {
      if (this.#binary) writeBinaryRow(w, this.#cols, values);
      else writeTextRow(w, this.#cols, values);
    } catch (e) {
      // a value that cannot be sent (an infinity: 1690): the half-written row goes, the ERR follows
      w.pos = pos;
      w.seq = seq;
      throw e;
    }
    if (++this.#held >= CHUNK_ROWS || w.pos >= CHUNK_BYTES) this.#flush();
  }

  /** Ends the result set: the EOF after the last row (in the writer, for the reply). */
  finish(warnings: number): void {
    writeEof(this.#w, warnings);
  }

  /**
   * The statement waits for a lock and will run again from its start: the rows held are dropped
   * (they will be produced again), those sent will be skipped. Before anything went out the
   * writer is as if the result had not begun, so the run again starts afresh.
   */
  rewind(): void {
    const w = this.#w;
    if (!this.#flushed) {
      this.#begun = false;
      this.#held = 0;
      w.pos = 0;
      w.seq = 1;
      return;
    }
    w.pos = 0;
    w.seq = this.#heldSeq;
    this.#held = 0;
    this.#skip = this.#sent;
  }

  restart(): void {
    this.rewind();
  }

  /** The sequence id of the first packet held (after the last chunk sent). */
  #heldSeq = 1;

  #flush(): void {
    if (!this.#flushed) this.onFirstChunk?.();
    const bytes = this.#w.take();
    try {
      this.#out(bytes);
    } catch (e) {
      // the chunk did not go (KILL while waiting for the client): what follows takes its place
      this.#w.seq = this.#heldSeq;
      this.#held = 0;
      throw e;
    }
    this.#flushed = true;
    this.#sent += this.#held;
    this.#held = 0;
    this.#heldSeq = this.#w.seq;
  }
}
