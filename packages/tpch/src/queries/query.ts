import { checkQuery, qgenParameters, validationParameters } from './qgen.js';
import { substitute, type QueryTemplate, type TpchQueryText } from './template.js';
import { TEMPLATES_1_11 } from './templates-1-11.js';
import { TEMPLATES_12_22 } from './templates-12-22.js';

/** The 22 query templates, `TPCH_QUERIES[q - 1]` being query q. */
export const TPCH_QUERIES: readonly QueryTemplate[] = [...TEMPLATES_1_11, ...TEMPLATES_12_22];

/** How {@link tpchQuery} chooses the parameters. */
export interface TpchQueryOptions {
  /**
   * Draw the parameters as `qgen -r seed` does (an integer in [1, 2^31 − 2]). Without a seed (and
   * without `parameters`) the query gets its validation parameters, as `qgen -d`.
   */
  readonly seed?: number;
  /** The scale factor the parameters are for, as qgen's `-s` (only Q11's fraction uses it). Default 1. */
  readonly sf?: number;
  /** Or the parameters themselves: `parameters[0]` replaces `:1`. */
  readonly parameters?: readonly string[];
}

/**
 * TPC-H query `query` (1–22) with its parameters put in, in the MySQL/MariaDB dialect.
 *
 * @example
 * tpchQuery(6).answer;               // Q6 with 1994-01-01, .06, 24 (the validation parameters)
 * tpchQuery(6, { seed: 1 }).parameters; // what `qgen -r 1 6` substitutes
 */
export function tpchQuery(query: number, options: TpchQueryOptions = {}): TpchQueryText {
  checkQuery(query);
  const sf = options.sf ?? 1;
  if (typeof sf !== 'number' || !(sf > 0) || !Number.isFinite(sf)) {
    throw new RangeError(`sf must be a positive number, got ${String(sf)}`);
  }
  if (options.parameters !== undefined && options.seed !== undefined) {
    throw new TypeError('give either seed or parameters, not both');
  }
  const parameters =
    options.parameters ??
    (options.seed === undefined ? validationParameters(query, sf) : qgenParameters(query, options.seed, sf));
  return substitute(TPCH_QUERIES[query - 1]!, parameters);
}
