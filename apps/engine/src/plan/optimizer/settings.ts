import type { StatisticsSource } from '../../storage/statistics.js';
import type { OptimizerTrace } from './trace.js';

/**
 * The system variables and `optimizer_switch` flags one query is planned under (MySQL/MariaDB
 * names), and where its statistics come from.
 */
export interface OptimizerSettings {
  readonly statistics: StatisticsSource;
  /** 0: automatic (MySQL picks min(tables, 7)); otherwise the greedy search's look-ahead. */
  readonly optimizer_search_depth: number;
  /** 1: prune partial plans worse than the best seen with as many tables (MySQL's heuristic). */
  readonly optimizer_prune_level: number;
  /** Equality ranges up to this many are estimated by dives, beyond it by rec_per_key (0: always dive). */
  readonly eq_range_index_dive_limit: number;
  readonly join_cache_level: number;
  readonly join_buffer_size: number;
  readonly join_buffer_space_limit: number;
  readonly mrr_buffer_size: number;
  /** What runs a BNLH join: MariaDB's BNLH, or join-algos' grace hash or sort-merge join. */
  readonly hashJoinAlgorithm: HashJoinAlgorithm;
  /** `optimizer_switch` as flag → on. */
  readonly switches: Readonly<Record<string, boolean>>;
  /** When set, the search writes what it considered here (`optimizer_trace`). */
  readonly trace?: OptimizerTrace;
}

/** `enginekit_hash_join_algorithm`'s values. */
export type HashJoinAlgorithm = 'bnlh' | 'grace_hash' | 'sort_merge';

/** Parse `optimizer_switch`'s `flag=on,flag=off,…` text. */
export function parseSwitches(text: string): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const item of text.split(',')) {
    const [k, v] = item.split('=');
    if (k !== undefined && v !== undefined) out[k.trim()] = v.trim() === 'on';
  }
  return out;
}

/** The settings from a session's variables (`get` returns a variable's value by name). */
export function settingsFrom(
  get: (name: string) => string | number,
  statistics: StatisticsSource,
  trace?: OptimizerTrace,
): OptimizerSettings {
  return {
    statistics,
    optimizer_search_depth: Number(get('optimizer_search_depth')),
    optimizer_prune_level: Number(get('optimizer_prune_level')),
    eq_range_index_dive_limit: Number(get('eq_range_index_dive_limit')),
    join_cache_level: Number(get('join_cache_level')),
    join_buffer_size: Number(get('join_buffer_size')),
    join_buffer_space_limit: Number(get('join_buffer_space_limit')),
    mrr_buffer_size: Number(get('mrr_buffer_size')),
    hashJoinAlgorithm: String(get('enginekit_hash_join_algorithm')) as HashJoinAlgorithm,
    switches: parseSwitches(String(get('optimizer_switch'))),
    ...(trace === undefined ? {} : { trace }),
  };
}
