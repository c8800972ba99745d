import { PARK_MILLER_M, ParkMiller } from '@enginekit/prng';
import {
  colors,
  containers,
  type Distribution,
  marketSegments,
  partTypes,
  regions,
  shipModes,
} from '../internal/dists.js';
import { nationRegion, nations2, q13a, q13b } from './qgen-dists.js';

/** The number of TPC-H queries (`QUERIES_PER_SET` in dbgen's `tpcd.h`). */
export const TPCH_QUERY_COUNT = 22;

/** Q11's fraction at SF 1 (`Q11_FRACTION` in `tpcd.h`); qgen divides it by the scale factor. */
const Q11_FRACTION = 0.0001;

/**
 * The streams qgen draws parameters from (`qgen.c`, `main`): stream 0 starts at the seed given
 * with `-r`, and stream q (1…22) starts at the q-th Park–Miller successor of the seed, so each
 * query's parameters depend only on the seed and the query number.
 */
export function qgenStream(seed: number, query: number): ParkMiller {
  checkSeed(seed);
  const s = new ParkMiller({ seed });
  s.skip(query);
  return s;
}

/** REQUIRES: an integer in [1, 2^31 − 2], the range of a Park–Miller state. */
function checkSeed(seed: number): void {
  if (!Number.isInteger(seed) || seed < 1 || seed >= PARK_MILLER_M) {
    throw new RangeError(`seed must be an integer in [1, 2147483646], got ${String(seed)}`);
  }
}

/** bm_utils.c `pick_str`: one draw in [1, total], the first member whose running weight reaches it. */
function pick(s: ParkMiller, d: Distribution): number {
  const j = s.unifInt(1, d.total);
  let i = 0;
  while (d.cumulative[i]! < j) i++;
  return i;
}

/** permute.c `permute`: swap each position i with a uniform one in [i, n − 1], in place. */
function permute(a: number[], s: ParkMiller): void {
  for (let i = 0; i < a.length; i++) {
    const j = s.unifInt(i, a.length - 1);
    const t = a[j]!;
    a[j] = a[i]!;
    a[i] = t;
  }
}

const two = (n: number): string => String(n).padStart(2, '0');

/** varsub.c's `19%02d-%02d-01` for month number m (0 = January 1993). */
function monthStart(m: number): string {
  return `19${93 + Math.floor(m / 12)}-${two((m % 12) + 1)}-01`;
}

/** `asc_date[day]`: 1992-01-01 plus `day` days, as `YYYY-MM-DD`. */
function ascDate(day: number): string {
  return new Date(Date.UTC(1992, 0, 1 + day)).toISOString().slice(0, 10);
}

/** A part type's words without the last one (Q16), or only the last one (Q2). */
function typeWords(s: ParkMiller, part: 'head' | 'last'): string {
  const t = partTypes.words[pick(s, partTypes)]!;
  const cut = t.lastIndexOf(' ');
  return part === 'head' ? t.slice(0, cut) : t.slice(cut + 1);
}

const brand = (s: ParkMiller): string => `Brand#${s.unifInt(1, 5)}${s.unifInt(1, 5)}`;

/** Q11's second parameter, printed as qgen prints it (`%11.10f`). */
export function q11Fraction(sf: number): string {
  return (Q11_FRACTION / sf).toFixed(10);
}

/**
 * The parameters qgen substitutes for `:1`, `:2`, … of query `query` when seeded with `seed`
 * (`qgen -r seed -s sf query`), drawn in `varsub.c`'s order: dates, words of `dists.dss`, brands,
 * and Q16's and Q22's permutations. Each call starts from qgen's initial tables (as one qgen run
 * that emits each query once).
 */
export function qgenParameters(query: number, seed: number, sf = 1): string[] {
  checkQuery(query);
  const s = qgenStream(seed, query);
  const word = (d: Distribution): string => d.words[pick(s, d)]!;
  switch (query) {
    case 1:
      return [String(s.unifInt(60, 120))];
    case 2: {
      const size = s.unifInt(1, 50);
      const type = typeWords(s, 'last');
      return [String(size), type, word(regions)];
    }
    case 3: {
      const segment = word(marketSegments);
      return [segment, ascDate(s.unifInt(0, 30) + 1155)];
    }
    case 4:
      // months 0–57 (1993-01…1997-10), as later varsub.c and published qgen output; revision 1.9 (2008) drew 1–58
      return [monthStart(s.unifInt(0, 57))];
    case 5: {
      const region = word(regions);
      return [region, `19${s.unifInt(93, 97)}-01-01`];
    }
    case 6: {
      const year = s.unifInt(93, 97);
      const discount = s.unifInt(2, 9);
      return [`19${year}-01-01`, `0.${two(discount)}`, String(s.unifInt(24, 25))];
    }
    case 7: {
      const a = pick(s, nations2);
      let b = pick(s, nations2);
      while (b === a) b = pick(s, nations2);
      return [nations2.words[a]!, nations2.words[b]!];
    }
    case 8: {
      const n = pick(s, nations2);
      return [nations2.words[n]!, regions.words[nationRegion(n)]!, word(partTypes)];
    }
    case 9:
      return [word(colors)];
    case 10:
      return [monthStart(s.unifInt(1, 24))];
    case 11:
      return [word(nations2), q11Fraction(sf)];
    case 12: {
      const a = pick(s, shipModes);
      let b = pick(s, shipModes);
      while (b === a) b = pick(s, shipModes);
      return [shipModes.words[a]!, shipModes.words[b]!, `19${s.unifInt(93, 97)}-01-01`];
    }
    case 13: {
      const first = word(q13a);
      return [first, word(q13b)];
    }
    case 14:
      return [monthStart(s.unifInt(0, 59))];
    case 15:
      return [monthStart(s.unifInt(0, 57))];
    case 16: {
      const b = brand(s);
      const type = typeWords(s, 'head');
      const sizes = Array.from({ length: 50 }, (_, i) => i + 1);
      permute(sizes, s);
      return [b, type, ...sizes.slice(0, 8).map(String)];
    }
    case 17: {
      const b = brand(s);
      return [b, word(containers)];
    }
    case 18:
      return [String(s.unifInt(312, 315))];
    case 19: {
      const b1 = brand(s);
      const b2 = brand(s);
      const b3 = brand(s);
      const q1 = s.unifInt(1, 10);
      const q2 = s.unifInt(10, 20);
      return [b1, b2, b3, String(q1), String(q2), String(s.unifInt(20, 30))];
    }
    case 20: {
      const color = word(colors);
      const year = s.unifInt(93, 97);
      return [color, `19${year}-01-01`, word(nations2)];
    }
    case 21:
      return [word(nations2)];
    default: {
      const codes = Array.from({ length: 25 }, (_, i) => i + 10);
      permute(codes, s);
      return codes.slice(0, 7).map(String);
    }
  }
}

/** The validation parameters (`qgen -d`: `defaults` in `varsub.c`); Q11's fraction follows `sf`. */
export function validationParameters(query: number, sf = 1): string[] {
  checkQuery(query);
  if (query === 11) return ['GERMANY', q11Fraction(sf)];
  return [...VALIDATION[query - 1]!];
}

const VALIDATION: ReadonlyArray<readonly string[]> = [
  ['90'],
  ['15', 'BRASS', 'EUROPE'],
  ['BUILDING', '1995-03-15'],
  ['1993-07-01'],
  ['ASIA', '1994-01-01'],
  ['1994-01-01', '.06', '24'],
  ['FRANCE', 'GERMANY'],
  ['BRAZIL', 'AMERICA', 'ECONOMY ANODIZED STEEL'],
  ['green'],
  ['1993-10-01'],
  ['GERMANY', '0.0001'],
  ['MAIL', 'SHIP', '1994-01-01'],
  ['special', 'requests'],
  ['1995-09-01'],
  ['1996-01-01'],
  ['Brand#45', 'MEDIUM POLISHED', '49', '14', '23', '45', '19', '3', '36', '9'],
  ['Brand#23', 'MED BOX'],
  ['300'],
  ['Brand#12', 'Brand#23', 'Brand#34', '1', '10', '20'],
  ['forest', '1994-01-01', 'CANADA'],
  ['SAUDI ARABIA'],
  ['13', '31', '23', '29', '30', '18', '17'],
];

/** REQUIRES: an integer in [1, 22]. */
export function checkQuery(query: number): void {
  if (!Number.isInteger(query) || query < 1 || query > TPCH_QUERY_COUNT) {
    throw new RangeError(`query must be an integer in [1, 22], got ${String(query)}`);
  }
}
