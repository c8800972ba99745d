// Wrong arguments are TypeError / RangeError naming the argument and the value.
import { describe, expect, it } from 'vitest';
import {
  arrayIndex,
  arraySource,
  blockNestedLoopJoin,
  hashJoin,
  indexNestedLoopJoin,
  simpleNestedLoopJoin,
  sortMergeJoin,
  type Tuple,
  tupleCodec,
} from '../src/index.js';

const rows: Tuple[] = [[1, 1]];
const key = (r: Tuple) => r[0] as number;
const spec = {
  type: 'inner' as const,
  outer: arraySource(rows),
  inner: arraySource(rows),
  outerKey: key,
  innerKey: key,
};

describe('argument errors', () => {
  it('names a bad join type', () => {
    expect(() => simpleNestedLoopJoin({ ...spec, type: 'full' as 'inner' }, () => {})).toThrow(
      /type must be 'inner', 'left', 'semi' or 'anti', got full/,
    );
  });
  it('names a missing source or key function', () => {
    expect(() => hashJoin({ ...spec, outer: null as never }, () => {})).toThrow(TypeError);
    expect(() => hashJoin({ ...spec, outer: null as never }, () => {})).toThrow(/spec.outer/);
    expect(() => sortMergeJoin({ ...spec, inner: {} as never }, () => {})).toThrow(/spec.inner/);
    expect(() => sortMergeJoin({ ...spec, innerKey: 3 as never }, () => {})).toThrow(
      /spec.innerKey must be a function/,
    );
    expect(() => simpleNestedLoopJoin(spec, null as never)).toThrow(/emit/);
  });
  it('names a bad index access', () => {
    expect(() => indexNestedLoopJoin({ ...spec, inner: arraySource(rows) as never }, () => {})).toThrow(
      /IndexAccess/,
    );
    expect(() => indexNestedLoopJoin({ ...spec, inner: arrayIndex(rows, key) }, () => {})).not.toThrow();
  });
  it('names a bad join_buffer_size or codec', () => {
    const codec = tupleCodec(['int32', 'int32']);
    expect(() => blockNestedLoopJoin({ ...spec, outerCodec: codec, join_buffer_size: 0 }, () => {})).toThrow(
      /join_buffer_size must be in \[1, 2\^31\] bytes, got 0/,
    );
    expect(() =>
      blockNestedLoopJoin({ ...spec, outerCodec: codec, join_buffer_size: 1.5 }, () => {}),
    ).toThrow(TypeError);
    expect(() =>
      blockNestedLoopJoin({ ...spec, outerCodec: {} as never, join_buffer_size: 64 }, () => {}),
    ).toThrow(/outerCodec/);
  });
  it('names a bad column type or an oversized string', () => {
    expect(() => tupleCodec(['int32', 'blob' as 'string'])).toThrow(
      /columns\[1\]: unknown column type 'blob'/,
    );
    const c = tupleCodec(['string']);
    const big = ['x'.repeat(70000)];
    const bytes = new Uint8Array(c.byteLength(big));
    expect(() => c.write(big, bytes, new DataView(bytes.buffer), 0)).toThrow(/exceeds its 65535-byte column/);
  });
});
