/**
 * A page read from a device failed verification: its checksum, its page number or its LSN copy
 * does not match. The pool never returns such a page; the frame goes back to the free list.
 */
export class CorruptionError extends Error {
  override readonly name = 'CorruptionError' as const;
  /** The device's name (a file path for a `FileDevice`). */
  readonly file: string;
  readonly space: number;
  readonly pageNo: number;
  /** What did not match: `checksum`, `trailer checksum`, `trailer lsn`, `page number`, `space id`. */
  readonly reason: string;

  constructor(file: string, space: number, pageNo: number, reason: string) {
    super(`corrupt page ${pageNo} of space ${space} in ${file}: ${reason} mismatch`);
    this.file = file;
    this.space = space;
    this.pageNo = pageNo;
    this.reason = reason;
  }
}

/**
 * No frame could be freed: every frame of the page's instance is fixed or under I/O, and it
 * stayed so for `freeWaitMs` (InnoDB would loop in `buf_LRU_get_free_block` and print
 * "difficult to find free blocks"; we give up with this error instead of hanging).
 */
export class BufferPoolFullError extends Error {
  override readonly name = 'BufferPoolFullError' as const;
  readonly instance: number;
  readonly frames: number;

  constructor(instance: number, frames: number, waitedMs: number) {
    super(
      `buffer pool instance ${instance} has no replaceable frame: all ${frames} frames are fixed or under I/O (waited ${waitedMs} ms)`,
    );
    this.instance = instance;
    this.frames = frames;
  }
}
