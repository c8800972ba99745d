export type { Emit, IndexAccess, JoinKey, JoinSpec, JoinType, RowSource } from './types.js';
export { joinTypes } from './types.js';
export { addJoinStats, createJoinStats, type JoinStats } from './stats.js';
export { type ColumnType, type RowCodec, type Tuple, tupleCodec } from './codec.js';
export { arrayIndex, arraySource } from './sources.js';
export {
  JoinBuffer,
  type JoinBufferLayout,
  recordHeaderBytes,
  recordLengthBytes,
} from './join-buffer.js';
export {
  allocateJoinBuffers,
  JOIN_BUFFER_SPACE_LIMIT_DEFAULT,
  type JoinBufferNeeds,
  type JoinBufferNeedsInput,
  JoinBufferSpace,
  type JoinBufferSpaceOptions,
  joinBufferNeeds,
} from './join-buffer-space.js';
export { type JoinPlanOptions, type JoinPlanStep, type JoinPlanTable, planJoinCaches } from './join-plan.js';
export { type ScanJoinSpec, simpleNestedLoopJoin } from './nested-loop.js';
export { type IndexJoinSpec, indexNestedLoopJoin } from './index-nested-loop.js';
export {
  type BlockJoinSpec,
  blockNestedLoopHashJoin,
  blockNestedLoopJoin,
  HASH_ENTRY_BYTES,
  JOIN_BUFFER_SIZE_DEFAULT,
  type JoinBufferOptions,
} from './block-nested-loop.js';
export { hashJoin } from './hash-join.js';
export {
  BUILD_ROW_OVERHEAD,
  type GraceHashJoinSpec,
  graceHashJoin,
  SPILL_PREFIX,
} from './grace-hash-join.js';
export { compareKeys, sortMergeJoin } from './sort-merge-join.js';
export {
  chooseJoinCache,
  defaultJoinCacheSwitches,
  explainJoinCache,
  type JoinCacheChoice,
  type JoinCacheSwitches,
  type JoinCacheTable,
} from './join-cache-level.js';
export {
  type BkaJoinSpec,
  type BkaMrrOptions,
  batchedKeyAccessHashJoin,
  batchedKeyAccessJoin,
  bkaAuxBufferIncrement,
  MRR_ASSOCIATION_BYTES,
} from './batched-key-access.js';
export { type BkaCacheSpec, BkaJoinCache } from './bka-cache.js';
export { arrayIndexReader, type IndexKey, indexAccessFromReader } from './mrr-adapters.js';
export { blockJoinPipeline, linkBytes, type PipelineStep, type PipelineTable } from './join-pipeline.js';
