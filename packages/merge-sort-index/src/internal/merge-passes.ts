import type { SpillDirectory } from '@enginekit/common';
import type { RecordCursor } from './cursor.js';
import { copyRun, RunReader, RunWriter } from './run-io.js';

/** Records between two abort checks. */
export const CHECK_EVERY = 1024;

/** What the run store needs from its sorter. */
export interface RunStoreHooks {
  /** Account `bytes` of new buffer memory. */
  alloc(bytes: number): void;
  /** Throw if the sort was aborted. */
  checkAbort(): void;
  /** A merge of `inputs` (2-way or loser tree), stable: ties go to the lower input. */
  merger(inputs: RecordCursor[]): RecordCursor;
}

/**
 * The sorted runs on disk and the merge passes over them, after MySQL's `row_merge_sort` /
 * `row_merge`: runs live in one temp file, each pass merges groups of `fanIn` consecutive runs
 * into the other file and the two files swap (InnoDB's `file` and `tmpfile`).
 *
 * A run is the byte range of its records, `[starts[i], ends[i])`, plus where its blocks end
 * (`blockEnds[i]`). With `marker` (MySQL 5.6's layout) every run is closed by a 0 byte and
 * padded to a whole block, and the next run starts at a block boundary; without it runs are
 * packed back to back and `blockEnds` equals `ends`.
 */
/** The runs of one file: run i holds records `[starts[i], ends[i])`, its blocks end at `blockEnds[i]`. */
interface Layout {
  starts: number[];
  ends: number[];
  blockEnds: number[];
}

function emptyLayout(): Layout {
  return { starts: [], ends: [], blockEnds: [] };
}

export class RunStore {
  readonly #files: SpillDirectory;
  readonly #blockSize: number;
  readonly #marker: boolean;
  readonly #hooks: RunStoreHooks;
  #writer: RunWriter | undefined;
  #fdRuns = -1;
  #fdOther = -1;
  #layout: Layout = emptyLayout();
  #readers: RunReader[] = [];
  /** Memory lent to the read buffers (the idle sort buffer), and how much of it is taken. */
  #arena: ArrayBuffer | undefined;
  #arenaUsed = 0;

  constructor(files: SpillDirectory, blockSize: number, marker: boolean, hooks: RunStoreHooks) {
    this.#files = files;
    this.#blockSize = blockSize;
    this.#marker = marker;
    this.#hooks = hooks;
  }

  /** Runs in the current file. */
  get runs(): number {
    return this.#layout.starts.length;
  }

  /** Close the run that started at `start` in `layout`. */
  #endRun(w: RunWriter, layout: Layout, start: number): void {
    const end = w.position;
    if (this.#marker) w.endRunWithMarker();
    else w.flush();
    layout.starts.push(start);
    layout.ends.push(end);
    layout.blockEnds.push(w.position);
  }

  /** Append the records of `sorted` as one run (`row_merge_buf_write` + `row_merge_write`). */
  writeRun(sorted: RecordCursor): void {
    if (this.#writer === undefined) {
      this.#fdRuns = this.#files.open();
      this.#writer = new RunWriter(Buffer.allocUnsafeSlow(this.#blockSize), this.#files);
      this.#hooks.alloc(this.#blockSize);
      this.#writer.open(this.#fdRuns, 0);
    }
    const w = this.#writer;
    const start = w.position;
    while (sorted.next()) w.append(sorted.buf, sorted.recordStart, sorted.valueEnd - sorted.recordStart);
    this.#endRun(w, this.#layout, start);
  }

  /**
   * Lend `memory` (the sort buffer, idle once the last run is written) to the merge's read
   * buffers: in 'kway' mode `fanIn · kwayReadSize ≤ innodb_sort_buffer_size`, so the merge needs
   * no new memory; in 'innodb' mode the first input buffer comes from it.
   */
  lend(memory: ArrayBuffer): void {
    this.#arena = memory;
    this.#arenaUsed = 0;
  }

  /** The read buffer of merge input `i`: from the lent memory while it has room, else new. */
  #reader(i: number, size: number): RunReader {
    let r = this.#readers[i];
    if (r === undefined) {
      const arena = this.#arena;
      let buf: Buffer;
      if (arena !== undefined && this.#arenaUsed + size <= arena.byteLength) {
        buf = Buffer.from(arena, this.#arenaUsed, size);
        this.#arenaUsed += size;
      } else {
        buf = Buffer.allocUnsafeSlow(size);
        this.#hooks.alloc(size);
      }
      r = new RunReader(buf, this.#files);
      this.#readers[i] = r;
    }
    return r;
  }

  /** A reader on run `run` of the current file, in read slot `slot` (buffer of `size` bytes). */
  open(slot: number, run: number, size: number): RunReader {
    const r = this.#reader(slot, size);
    const l = this.#layout;
    r.open(this.#fdRuns, l.starts[run]!, l.ends[run]!, l.blockEnds[run]!);
    return r;
  }

  /**
   * One merge pass: groups of `fanIn` consecutive runs merge into the other file (a lone run
   * is copied, `row_merge_blocks_copy`); the files swap. Returns the records and bytes merged.
   */
  mergePass(fanIn: number, readSize: number): { rows: number; bytes: number } {
    if (this.#fdOther < 0) this.#fdOther = this.#files.open();
    const w = this.#writer!;
    w.open(this.#fdOther, 0);
    const runs = this.runs;
    const next = emptyLayout();
    let rows = 0;
    let bytes = 0;
    for (let g = 0; g < runs; g += fanIn) {
      const n = Math.min(fanIn, runs - g);
      const start = w.position;
      if (n === 1) {
        rows += copyRun(this.open(0, g, readSize), w);
      } else {
        const inputs: RunReader[] = [];
        for (let i = 0; i < n; i++) inputs.push(this.open(i, g + i, readSize));
        const m = this.#hooks.merger(inputs);
        while (m.next()) {
          w.append(m.buf, m.recordStart, m.valueEnd - m.recordStart);
          if (++rows % CHECK_EVERY === 0) this.#hooks.checkAbort();
        }
      }
      bytes += w.position - start;
      this.#endRun(w, next, start);
    }
    this.#layout = next;
    const t = this.#fdRuns;
    this.#fdRuns = this.#fdOther;
    this.#fdOther = t;
    return { rows, bytes };
  }

  /** Drop every buffer (the files themselves belong to the spill directory). */
  release(): void {
    this.#writer = undefined;
    this.#readers = [];
    this.#arena = undefined;
  }
}
