import type { Experiment } from '../../experiment.js';
import { POSTS } from '../../posts.js';
import { measure } from './measure.js';
import { present } from './present.js';

export const prngBias: Experiment = {
  name: 'prng-bias',
  title: 'The case of mistaken identity: which page the legacy generators sample',
  post: {
    title: 'InnoDB\'s "mistaken identity": the random dives always sampled the same page',
    sources: [POSTS.randomSelections],
    claim:
      'InnoDB 5.0/5.1 picked its statistics sample by random dives whose generator only produced numbers with remainder 2 mod 3, so on a root of 3 records every dive took the same child; 32-bit builds escaped once the word wrapped.',
  },
  run: async (ctx) => present(await measure(ctx)),
};
