/**
 * A position on one record of a sorted stream: the record lives in `buf`, key in
 * `[keyStart, keyEnd)`, value in `[valueStart, valueEnd)`, the whole encoded record in
 * `[recordStart, valueEnd)`. The ranges are valid until the next `next()`.
 */
export interface RecordCursor {
  buf: Buffer;
  recordStart: number;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  /** Move to the next record; false at the end (the fields are then stale). */
  next(): boolean;
}

/** Comparison counter shared by the in-memory sort and the merges. */
export interface Counter {
  comparisons: number;
}
