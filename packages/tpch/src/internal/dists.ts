/**
 * The word lists and weights TPC-H dbgen reads from `dists.dss` (TPC-H 2.x), restated as data.
 *
 * Each list keeps dbgen's order, because `pick_str` walks the cumulative weights in that order:
 * a uniform draw `j` in [1, total] selects the first member whose running total is ≥ `j`.
 * Order and weights are part of the output format; changing either changes every `.tbl` byte.
 */
export interface Distribution {
  readonly name: string;
  /** Members in dbgen order. */
  readonly words: readonly string[];
  /** Running totals of the weights, `cumulative[i] = w[0] + … + w[i]`. */
  readonly cumulative: Int32Array;
  /** The last running total: `pick_str` draws uniformly from [1, total]. */
  readonly total: number;
}

function dist(name: string, pairs: ReadonlyArray<readonly [string, number]>): Distribution {
  const words = pairs.map((p) => p[0]);
  const cumulative = new Int32Array(pairs.length);
  let run = 0;
  for (let i = 0; i < pairs.length; i++) {
    run += pairs[i]![1];
    cumulative[i] = run;
  }
  return { name, words, cumulative, total: run };
}

/** Members that all weigh 1. */
function flat(name: string, words: readonly string[]): Distribution {
  return dist(
    name,
    words.map((w) => [w, 1] as const),
  );
}

/** Nation names. The weights are not a distribution: their running total is the region key. */
export const nations: Distribution = dist('nations', [
  ['ALGERIA', 0],
  ['ARGENTINA', 1],
  ['BRAZIL', 0],
  ['CANADA', 0],
  ['EGYPT', 3],
  ['ETHIOPIA', -4],
  ['FRANCE', 3],
  ['GERMANY', 0],
  ['INDIA', -1],
  ['INDONESIA', 0],
  ['IRAN', 2],
  ['IRAQ', 0],
  ['JAPAN', -2],
  ['JORDAN', 2],
  ['KENYA', -4],
  ['MOROCCO', 0],
  ['MOZAMBIQUE', 0],
  ['PERU', 1],
  ['CHINA', 1],
  ['ROMANIA', 1],
  ['SAUDI ARABIA', 1],
  ['VIETNAM', -2],
  ['RUSSIA', 1],
  ['UNITED KINGDOM', 0],
  ['UNITED STATES', -2],
]);

export const regions: Distribution = flat('regions', ['AFRICA', 'AMERICA', 'ASIA', 'EUROPE', 'MIDDLE EAST']);

const containerSizes = ['SM', 'LG', 'MED', 'JUMBO', 'WRAP'];
const containerKinds = ['CASE', 'BOX', 'BAG', 'JAR', 'PACK', 'PKG', 'CAN', 'DRUM'];
/** p_container: size × kind, size-major (40 members). */
export const containers: Distribution = flat(
  'p_cntr',
  containerSizes.flatMap((s) => containerKinds.map((k) => `${s} ${k}`)),
);

const typeSyllable1 = ['STANDARD', 'SMALL', 'MEDIUM', 'LARGE', 'ECONOMY', 'PROMO'];
const typeSyllable2 = ['ANODIZED', 'BURNISHED', 'PLATED', 'POLISHED', 'BRUSHED'];
const typeSyllable3 = ['TIN', 'NICKEL', 'BRASS', 'STEEL', 'COPPER'];
/** p_type: three syllables, first-major (150 members). */
export const partTypes: Distribution = flat(
  'p_types',
  typeSyllable1.flatMap((a) => typeSyllable2.flatMap((b) => typeSyllable3.map((c) => `${a} ${b} ${c}`))),
);

export const shipInstructions: Distribution = flat('instruct', [
  'DELIVER IN PERSON',
  'COLLECT COD',
  'TAKE BACK RETURN',
  'NONE',
]);

export const marketSegments: Distribution = flat('msegmnt', [
  'AUTOMOBILE',
  'BUILDING',
  'FURNITURE',
  'HOUSEHOLD',
  'MACHINERY',
]);

export const orderPriorities: Distribution = flat('o_oprio', [
  '1-URGENT',
  '2-HIGH',
  '3-MEDIUM',
  '4-NOT SPECIFIED',
  '5-LOW',
]);

export const returnFlags: Distribution = flat('rflag', ['R', 'A']);

export const shipModes: Distribution = flat('smode', [
  'REG AIR',
  'AIR',
  'RAIL',
  'TRUCK',
  'MAIL',
  'FOB',
  'SHIP',
]);

/** The 92 colours p_name is built from (five distinct ones, by a partial shuffle). */
export const colors: Distribution = flat('colors', [
  'almond',
  'antique',
  'aquamarine',
  'azure',
  'beige',
  'bisque',
  'black',
  'blanched',
  'blue',
  'blush',
  'brown',
  'burlywood',
  'burnished',
  'chartreuse',
  'chiffon',
  'chocolate',
  'coral',
  'cornflower',
  'cornsilk',
  'cream',
  'cyan',
  'dark',
  'deep',
  'dim',
  'dodger',
  'drab',
  'firebrick',
  'floral',
  'forest',
  'frosted',
  'gainsboro',
  'ghost',
  'goldenrod',
  'green',
  'grey',
  'honeydew',
  'hot',
  'indian',
  'ivory',
  'khaki',
  'lace',
  'lavender',
  'lawn',
  'lemon',
  'light',
  'lime',
  'linen',
  'magenta',
  'maroon',
  'medium',
  'metallic',
  'midnight',
  'mint',
  'misty',
  'moccasin',
  'navajo',
  'navy',
  'olive',
  'orange',
  'orchid',
  'pale',
  'papaya',
  'peach',
  'peru',
  'pink',
  'plum',
  'powder',
  'puff',
  'purple',
  'red',
  'rose',
  'rosy',
  'royal',
  'saddle',
  'salmon',
  'sandy',
  'seashell',
  'sienna',
  'sky',
  'slate',
  'smoke',
  'snow',
  'spring',
  'steel',
  'tan',
  'thistle',
  'tomato',
  'turquoise',
  'violet',
  'wheat',
  'white',
  'yellow',
]);

// ---- the comment grammar -------------------------------------------------------------------

export const nouns: Distribution = dist('nouns', [
  ['packages', 40],
  ['requests', 40],
  ['accounts', 40],
  ['deposits', 40],
  ['foxes', 20],
  ['ideas', 20],
  ['theodolites', 20],
  ['pinto beans', 20],
  ['instructions', 20],
  ['dependencies', 10],
  ['excuses', 10],
  ['platelets', 10],
  ['asymptotes', 10],
  ['courts', 5],
  ['dolphins', 5],
  ['multipliers', 1],
  ['sauternes', 1],
  ['warthogs', 1],
  ['frets', 1],
  ['dinos', 1],
  ['attainments', 1],
  ['somas', 1],
  ['Tiresias', 1],
  ['patterns', 1],
  ['forges', 1],
  ['braids', 1],
  ['frays', 1],
  ['warhorses', 1],
  ['dugouts', 1],
  ['notornis', 1],
  ['epitaphs', 1],
  ['pearls', 1],
  ['tithes', 1],
  ['waters', 1],
  ['orbits', 1],
  ['gifts', 1],
  ['sheaves', 1],
  ['depths', 1],
  ['sentiments', 1],
  ['decoys', 1],
  ['realms', 1],
  ['pains', 1],
  ['grouches', 1],
  ['escapades', 1],
  ['hockey players', 1],
]);

export const verbs: Distribution = dist('verbs', [
  ['sleep', 20],
  ['wake', 20],
  ['are', 20],
  ['cajole', 20],
  ['haggle', 20],
  ['nag', 10],
  ['use', 10],
  ['boost', 10],
  ['affix', 5],
  ['detect', 5],
  ['integrate', 5],
  ['maintain', 1],
  ['nod', 1],
  ['was', 1],
  ['lose', 1],
  ['sublate', 1],
  ['solve', 1],
  ['thrash', 1],
  ['promise', 1],
  ['engage', 1],
  ['hinder', 1],
  ['print', 1],
  ['x-ray', 1],
  ['breach', 1],
  ['eat', 1],
  ['grow', 1],
  ['impress', 1],
  ['mold', 1],
  ['poach', 1],
  ['serve', 1],
  ['run', 1],
  ['dazzle', 1],
  ['snooze', 1],
  ['doze', 1],
  ['unwind', 1],
  ['kindle', 1],
  ['play', 1],
  ['hang', 1],
  ['believe', 1],
  ['doubt', 1],
]);

export const adverbs: Distribution = dist('adverbs', [
  ['sometimes', 1],
  ['always', 1],
  ['never', 1],
  ['furiously', 50],
  ['slyly', 50],
  ['carefully', 50],
  ['blithely', 40],
  ['quickly', 30],
  ['fluffily', 20],
  ['slowly', 1],
  ['quietly', 1],
  ['ruthlessly', 1],
  ['thinly', 1],
  ['closely', 1],
  ['doggedly', 1],
  ['daringly', 1],
  ['bravely', 1],
  ['stealthily', 1],
  ['permanently', 1],
  ['enticingly', 1],
  ['idly', 1],
  ['busily', 1],
  ['regularly', 1],
  ['finally', 1],
  ['ironically', 1],
  ['evenly', 1],
  ['boldly', 1],
  ['silently', 1],
]);

export const articles: Distribution = dist('articles', [
  ['the', 50],
  ['a', 20],
  ['an', 5],
]);

export const prepositions: Distribution = dist('prepositions', [
  ['about', 50],
  ['above', 50],
  ['according to', 50],
  ['across', 50],
  ['after', 50],
  ['against', 40],
  ['along', 40],
  ['alongside of', 30],
  ['among', 30],
  ['around', 20],
  ['at', 10],
  ['atop', 1],
  ['before', 1],
  ['behind', 1],
  ['beneath', 1],
  ['beside', 1],
  ['besides', 1],
  ['between', 1],
  ['beyond', 1],
  ['by', 1],
  ['despite', 1],
  ['during', 1],
  ['except', 1],
  ['for', 1],
  ['from', 1],
  ['in place of', 1],
  ['inside', 1],
  ['instead of', 1],
  ['into', 1],
  ['near', 1],
  ['of', 1],
  ['on', 1],
  ['outside', 1],
  ['over', 1],
  ['past', 1],
  ['since', 1],
  ['through', 1],
  ['throughout', 1],
  ['to', 1],
  ['toward', 1],
  ['under', 1],
  ['until', 1],
  ['up', 1],
  ['upon', 1],
  ['whithout', 1],
  ['with', 1],
  ['within', 1],
]);

export const auxiliaries: Distribution = dist('auxillaries', [
  ['do', 1],
  ['may', 1],
  ['might', 1],
  ['shall', 1],
  ['will', 1],
  ['would', 1],
  ['can', 1],
  ['could', 1],
  ['should', 1],
  ['ought to', 1],
  ['must', 1],
  ['will have to', 1],
  ['shall have to', 1],
  ['could have to', 1],
  ['should have to', 1],
  ['must have to', 1],
  ['need to', 1],
  ['try to', 1],
]);

export const terminators: Distribution = dist('terminators', [
  ['.', 50],
  [';', 1],
  [':', 1],
  ['?', 1],
  ['!', 1],
  ['--', 1],
]);

export const adjectives: Distribution = dist('adjectives', [
  ['special', 20],
  ['pending', 20],
  ['unusual', 20],
  ['express', 20],
  ['furious', 1],
  ['sly', 1],
  ['careful', 1],
  ['blithe', 1],
  ['quick', 1],
  ['fluffy', 1],
  ['slow', 1],
  ['quiet', 1],
  ['ruthless', 1],
  ['thin', 1],
  ['close', 1],
  ['dogged', 1],
  ['daring', 1],
  ['brave', 1],
  ['stealthy', 1],
  ['permanent', 1],
  ['enticing', 1],
  ['idle', 1],
  ['busy', 1],
  ['regular', 50],
  ['final', 40],
  ['ironic', 40],
  ['even', 30],
  ['bold', 20],
  ['silent', 10],
]);

/** Sentence forms: N noun phrase, V verb phrase, P prepositional phrase, T terminator. */
export const grammar: Distribution = dist('grammar', [
  ['N V T', 3],
  ['N V P T', 3],
  ['N V N T', 3],
  ['N P V N T', 1],
  ['N P V P T', 1],
]);

/** Noun-phrase forms: A article, J adjective, D adverb, N noun; a trailing comma is kept. */
export const nounPhrases: Distribution = dist('np', [
  ['N', 10],
  ['J N', 20],
  ['J, J N', 10],
  ['D J N', 50],
]);

/** Verb-phrase forms: V verb, X auxiliary, D adverb. */
export const verbPhrases: Distribution = dist('vp', [
  ['V', 30],
  ['X V', 1],
  ['V D', 40],
  ['X V D', 1],
]);
