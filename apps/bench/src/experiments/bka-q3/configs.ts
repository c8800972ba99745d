import type { BkaConfig } from './q3-packages.js';

/** The sizes and configurations of `bka-q3`, read by its measure and its present. */

export const K = 1024;
export const M: number = 1024 * 1024;
/** join_buffer_space_limit's default. */
export const LIMIT: number = 2 * M;
const RAISED = 256 * M;

/** The join post's configurations, as MariaDB 10.11 spells them. */
export const BKA_CONFIGS: readonly BkaConfig[] = [
  {
    label: 'baseline (level 2, mrr off)',
    join_cache_level: 2,
    join_buffer_size: 256 * K,
    mrr_buffer_size: 256 * K,
    join_buffer_space_limit: LIMIT,
  },
  {
    label: 'BKA 256K',
    join_cache_level: 6,
    join_buffer_size: 256 * K,
    mrr_buffer_size: 256 * K,
    join_buffer_space_limit: LIMIT,
  },
  {
    label: 'BKA 6M, limit 2M',
    join_cache_level: 6,
    join_buffer_size: 6 * M,
    mrr_buffer_size: 6 * M,
    join_buffer_space_limit: LIMIT,
  },
  {
    label: 'BKA 6M, limit raised',
    join_cache_level: 6,
    join_buffer_size: 6 * M,
    mrr_buffer_size: 6 * M,
    join_buffer_space_limit: RAISED,
  },
  {
    label: 'BKAH 6M (level 8), limit raised',
    join_cache_level: 8,
    join_buffer_size: 6 * M,
    mrr_buffer_size: 6 * M,
    join_buffer_space_limit: RAISED,
  },
];
