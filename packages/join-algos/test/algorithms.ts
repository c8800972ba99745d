// Every join algorithm behind one signature, so one property suite runs them all.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arrayRowFetcher } from '@enginekit/mrr';
import {
  arrayIndex,
  arrayIndexReader,
  batchedKeyAccessHashJoin,
  batchedKeyAccessJoin,
  indexAccessFromReader,
  arraySource,
  blockNestedLoopHashJoin,
  blockNestedLoopJoin,
  type ColumnType,
  type Emit,
  graceHashJoin,
  hashJoin,
  indexNestedLoopJoin,
  type JoinStats,
  type JoinType,
  sortMergeJoin,
  simpleNestedLoopJoin,
  type Tuple,
  tupleCodec,
} from '../src/index.js';

export interface Case {
  type: JoinType;
  outer: Tuple[];
  inner: Tuple[];
  /** Column types of both tables: [key, payload]. */
  columns: ColumnType[];
  /** join_buffer_size / memoryBudget in bytes. */
  bufferSize: number;
  partitions: number;
  withCondition: boolean;
}

export const condition = (o: Tuple, i: Tuple): boolean => ((o[1] as number) + (i[1] as number)) % 3 !== 0;

export type Runner = (c: Case, emit: Emit<Tuple, Tuple>) => JoinStats;

/** The temp directory grace hash join uses in tests (checked empty afterwards). */
export const graceDir: string = mkdtempSync(join(tmpdir(), 'join-algos-test-'));

function base(c: Case) {
  return {
    type: c.type,
    outer: arraySource(c.outer),
    outerKey: (o: Tuple) => o[0] as number | string | null,
    innerKey: (i: Tuple) => i[0] as number | string | null,
    ...(c.withCondition ? { condition } : {}),
  };
}

function bka(c: Case) {
  return {
    ...base(c),
    reader: arrayIndexReader(c.inner, (i) => i[0] as number | null),
    fetcher: arrayRowFetcher(c.inner),
    outerCodec: tupleCodec(c.columns),
    join_buffer_size: c.bufferSize,
  };
}

export const runners: Record<string, Runner> = {
  'simple nested loop': (c, emit) => simpleNestedLoopJoin({ ...base(c), inner: arraySource(c.inner) }, emit),
  'index nested loop': (c, emit) =>
    indexNestedLoopJoin({ ...base(c), inner: arrayIndex(c.inner, (i) => i[0] as number | null) }, emit),
  'block nested loop': (c, emit) =>
    blockNestedLoopJoin(
      {
        ...base(c),
        inner: arraySource(c.inner),
        outerCodec: tupleCodec(c.columns),
        join_buffer_size: c.bufferSize,
      },
      emit,
    ),
  BNLH: (c, emit) =>
    blockNestedLoopHashJoin(
      {
        ...base(c),
        inner: arraySource(c.inner),
        outerCodec: tupleCodec(c.columns),
        join_buffer_size: c.bufferSize,
      },
      emit,
    ),
  'index nested loop over an MRR reader': (c, emit) =>
    indexNestedLoopJoin(
      {
        ...base(c),
        inner: indexAccessFromReader(
          arrayIndexReader(c.inner, (i) => i[0] as number | null),
          arrayRowFetcher(c.inner),
        ),
      },
      emit,
    ),
  BKA: (c, emit) => batchedKeyAccessJoin(bka(c), emit),
  'BKA key-ordered': (c, emit) => batchedKeyAccessJoin({ ...bka(c), mrr_sort_keys: true }, emit),
  'BKA key-ordered, no rowid sort': (c, emit) =>
    batchedKeyAccessJoin({ ...bka(c), mrr_sort_keys: true, sortRowIds: false }, emit),
  BKAH: (c, emit) => batchedKeyAccessHashJoin(bka(c), emit),
  'BKAH key-ordered': (c, emit) => batchedKeyAccessHashJoin({ ...bka(c), mrr_sort_keys: true }, emit),
  'hash join': (c, emit) => hashJoin({ ...base(c), inner: arraySource(c.inner) }, emit),
  'grace hash join': (c, emit) =>
    graceHashJoin(
      {
        ...base(c),
        inner: arraySource(c.inner),
        outerCodec: tupleCodec(c.columns),
        innerCodec: tupleCodec(c.columns),
        memoryBudget: c.bufferSize,
        partitions: c.partitions,
        tmpdir: graceDir,
      },
      emit,
    ),
  'sort-merge join': (c, emit) => sortMergeJoin({ ...base(c), inner: arraySource(c.inner) }, emit),
};

/** Run and return the output as a sorted list of strings (a multiset). */
export function multiset(run: Runner, c: Case): string[] {
  const out: string[] = [];
  run(c, (o, i) => out.push(JSON.stringify([o, i])));
  return out.sort();
}
