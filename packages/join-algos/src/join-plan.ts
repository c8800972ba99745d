import type { JoinBufferNeedsInput, JoinBufferSpaceOptions } from './join-buffer-space.js';
import { JoinBufferSpace, joinBufferNeeds } from './join-buffer-space.js';
import {
  chooseJoinCache,
  type JoinCacheChoice,
  type JoinCacheSwitches,
  type JoinCacheTable,
} from './join-cache-level.js';

/** One table of a join order, as {@link planJoinCaches} needs it. */
export interface JoinPlanTable {
  /** How the table is accessed; `first` and `prevCached` are filled in by the plan. */
  readonly access: Omit<JoinCacheTable, 'first' | 'prevCached'>;
  /** What its join buffer would hold (the partial rows before it); the algorithm comes from the choice. */
  readonly buffer: Omit<JoinBufferNeedsInput, 'algorithm'>;
}

/** A table's join method with the buffer it got. */
export interface JoinPlanStep {
  /** `chooseJoinCache`'s answer, turned into `none` when no buffer could be allocated. */
  readonly choice: JoinCacheChoice;
  /** Bytes of its join buffer (pass as the operator's `join_buffer_size`); 0 without one. */
  readonly join_buffer_size: number;
  /** True when a join cache was chosen but `join_buffer_space_limit` left no room for it. */
  readonly refused: boolean;
}

/** `join_cache_level`, the `optimizer_switch` flags and the buffer-space variables of one query. */
export interface JoinPlanOptions extends JoinBufferSpaceOptions {
  /** `join_cache_level`, 0–8. Default 2 (MariaDB 10.0). */
  readonly join_cache_level?: number;
  /** `optimizer_switch` flags; MariaDB 10.0's defaults for the rest. */
  readonly optimizer_switch?: Partial<JoinCacheSwitches>;
}

const NONE: JoinCacheChoice = Object.freeze({
  algorithm: 'none',
  incremental: false,
  level: 0,
  keyOrdered: false,
  rowidOrdered: false,
  extra: '',
});

/**
 * Join methods and buffers for a join order, table by table, as MariaDB 10.0's
 * `make_join_readinfo` → `check_join_cache_usage` → `JOIN_CACHE::init` → `alloc_buffer` does:
 * the first table is never buffered; each later table gets `chooseJoinCache`'s algorithm if
 * {@link JoinBufferSpace} can allocate its buffer, else no join buffer (`goto no_join_cache`),
 * and a table can link to the previous buffer (incremental) only if that table got one.
 */
export function planJoinCaches(
  tables: readonly JoinPlanTable[],
  options: JoinPlanOptions = {},
): JoinPlanStep[] {
  if (!Array.isArray(tables)) throw new TypeError(`tables must be an array, got ${String(tables)}`);
  const level = options.join_cache_level ?? 2;
  const space = new JoinBufferSpace(options);
  const out: JoinPlanStep[] = [];
  let prevCached = false;
  for (let j = 0; j < tables.length; j++) {
    const t = tables[j]!;
    const choice = chooseJoinCache(
      level,
      { ...t.access, first: j === 0, prevCached },
      options.optimizer_switch,
    );
    if (choice.algorithm === 'none') {
      space.skip();
      out.push({ choice, join_buffer_size: 0, refused: false });
      prevCached = false;
      continue;
    }
    const bytes = space.allocate(
      joinBufferNeeds({ ...t.buffer, algorithm: choice.algorithm }),
      `tables[${j}].buffer`,
    );
    if (bytes === 0) {
      out.push({ choice: NONE, join_buffer_size: 0, refused: true });
      prevCached = false;
    } else {
      out.push({ choice, join_buffer_size: bytes, refused: false });
      prevCached = true;
    }
  }
  // Buffers allocated earlier may have been shrunk for later ones.
  const sizes = space.sizes;
  return out.map((s, j) => (s.join_buffer_size === sizes[j] ? s : { ...s, join_buffer_size: sizes[j]! }));
}
