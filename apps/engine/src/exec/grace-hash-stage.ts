import { deserialize, serialize } from 'node:v8';
import { arraySource, graceHashJoin, type JoinKey, type RowCodec } from '@enginekit/join-algos';

/** A row of a join input with its join key: what the partition files hold. */
interface Keyed {
  readonly row: unknown[];
  readonly key: JoinKey;
}

/** Serialized records, made once per row for its byteLength and reused by its write. */
const bytesOf = new WeakMap<Keyed, Uint8Array>();

function recordBytes(r: Keyed): Uint8Array {
  let b = bytesOf.get(r);
  if (b === undefined) {
    b = serialize([r.row, r.key]);
    bytesOf.set(r, b);
  }
  return b;
}

/** Rows as V8's structured-clone bytes (every value a frame holds: numbers, bigints, strings, null). */
const KEYED: RowCodec<Keyed> = {
  byteLength: (r) => recordBytes(r).length,
  write: (r, bytes, _view, at) => {
    const b = recordBytes(r);
    bytes.set(b, at);
    return at + b.length;
  },
  read: (bytes, _view, at, length) => {
    const [row, key] = deserialize(bytes.subarray(at, at + length)) as [unknown[], JoinKey];
    return { row, key };
  },
};

/** Grace hash joins run and partition spills made by this thread since it started (for tests and benches). */
export const graceHashTotals = { joins: 0, spills: 0 };

/** One join-buffer fill joined by grace hash instead of BNLH. */
export interface GraceHashStage {
  readonly type: 'inner' | 'left';
  /** Outer rows (frame snapshots) and their keys. */
  readonly outer: readonly unknown[][];
  readonly outerKeys: readonly unknown[];
  /** The inner table's rows and their keys. */
  readonly inner: readonly unknown[][];
  readonly innerKeys: readonly unknown[];
  /** Bytes the build side (the inner rows) may hold before both sides go to partition files. */
  readonly memoryBudget: number;
  /** The join condition for a pair (the rows as read back from a partition file, when spilled). */
  condition(outer: unknown[], inner: unknown[]): boolean;
  emit(outer: unknown[], inner: unknown[] | null): void;
}

/**
 * Joins one fill of outer rows to the inner table with join-algos' grace hash join: the inner rows
 * are the build side; past `memoryBudget` both sides are written to partition files by the key's
 * hash (in a private temp directory, removed when the join ends or fails) and joined pair by pair.
 */
export function graceHashStage(s: GraceHashStage): void {
  const outer = s.outer.map((row, n): Keyed => ({ row, key: s.outerKeys[n] as JoinKey }));
  const inner = s.inner.map((row, n): Keyed => ({ row, key: s.innerKeys[n] as JoinKey }));
  const stats = graceHashJoin(
    {
      type: s.type,
      outer: arraySource(outer),
      inner: arraySource(inner),
      outerKey: (r) => r.key,
      innerKey: (r) => r.key,
      condition: (o, i) => s.condition(o.row, i.row),
      outerCodec: KEYED,
      innerCodec: KEYED,
      memoryBudget: s.memoryBudget,
    },
    (o, i) => s.emit(o.row, i === null ? null : i.row),
  );
  graceHashTotals.joins++;
  graceHashTotals.spills += stats.spills;
}
