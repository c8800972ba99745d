import { createGenerator, type RandomGenerator } from '@enginekit/prng';

/**
 * The random generators ANALYZE uses, one set per database as InnoDB has one set per server
 * process: each is a C file-static there, shared by every table and index, never reseeded, so its
 * state carries from one ANALYZE to the next.
 *
 * - `pageRnd`: 5.1's `page_rnd` (page0cur.c, `page_cur_open_on_rnd_user_rec`, legacy branch),
 *   starting at 976722341: transient dives with `innodb_use_legacy_cardinality_algorithm=ON`.
 * - `lcg`: `page_cur_lcg_prng` (the fix of bug #43660), seeded on first use from the clock in
 *   microseconds (`ut_time_us`): transient dives with the switch OFF.
 * - `utRnd`: `ut_rnd_gen_ulint` behind `ut_rnd_interval` (5.6 semantics, the interval's top never
 *   returned): the pick inside each segment of 5.6's persistent sampling.
 *
 * Tests replace them (e.g. an LCG with a fixed seed) to make runs repeatable.
 */
export interface StatsGenerators {
  pageRnd: RandomGenerator;
  lcg: RandomGenerator;
  utRnd: RandomGenerator;
}

export function serverGenerators(): StatsGenerators {
  return {
    pageRnd: createGenerator('innodb-page-rnd'),
    lcg: createGenerator('innodb-lcg64'),
    utRnd: createGenerator('innodb-ut-rnd', { intervalVariant: '5.5' }),
  };
}
