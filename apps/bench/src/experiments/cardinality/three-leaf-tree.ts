import { BTree, KeyWriter } from '@enginekit/btree-sampler';
import { BufferPool, MemoryDevice } from '@enginekit/buffer-pool';

/** A tree and the pool it lives in; `close()` releases both. */
export interface OwnedTree {
  readonly tree: BTree;
  readonly pool: BufferPool;
  close(): void;
}

const PAGE = 4096;

/**
 * A non-unique secondary index (INT column + INT primary key) of height 2 whose root holds 3
 * records: the shape of MySQL bug #43660. `rows` entries: the first `dense` threshold's rows have
 * distinct values, the rest share each value among `repeat` rows, so the leaves differ and the
 * page a dive reaches decides the estimate.
 */
function build(rows: number, distinctRows: number, repeat: number): OwnedTree {
  const pool = new BufferPool({
    innodb_page_size: PAGE,
    innodb_buffer_pool_size: 256 * PAGE,
    device: new MemoryDevice({ pageSize: PAGE }),
  });
  const tree = BTree.create(pool, { unique: false, tupleKeys: true, tupleValues: true });
  const key = new KeyWriter();
  const value = new KeyWriter();
  const loader = tree.bulkLoader();
  for (let i = 0; i < rows; i++) {
    const v = i < distinctRows ? i : distinctRows + Math.floor((i - distinctRows) / repeat);
    loader.add(key.reset().int32(v).copy(), value.reset().int32(i).copy());
  }
  loader.finish();
  return { tree, pool, close: () => pool.close() };
}

/** Leaf pages of a bulk-loaded tree of `rows` entries of this shape. */
function leavesFor(rows: number): number {
  const t = build(rows, rows, 1);
  const leaves = t.tree.stats().leafPages;
  t.close();
  return leaves;
}

/**
 * The largest such tree with exactly three full leaves under its root (found by bisection on the
 * row count, since the leaf capacity depends on the page format), its first two leaves of
 * distinct values and the third `repeat` rows per value.
 */
export function threeLeafTree(repeat = 10): OwnedTree & { rowsPerLeaf: number } {
  let lo = 3;
  let hi = 4 * PAGE;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (leavesFor(mid) <= 3) lo = mid;
    else hi = mid - 1;
  }
  const perLeaf = Math.floor(lo / 3);
  const t = build(lo, 2 * perLeaf, repeat);
  const st = t.tree.stats();
  if (st.height !== 2 || st.leafPages !== 3) {
    t.close();
    throw new Error(`three-leaf tree came out with height ${st.height} and ${st.leafPages} leaves`);
  }
  return { ...t, rowsPerLeaf: perLeaf };
}
